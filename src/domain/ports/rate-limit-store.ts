// The rate limits' contract: how many requests a key (a caller, an address) may make per
// window, and the port that keeps the counts, so that instances sharing a store share the limits.

/** Requests (or failed authentications) allowed per window of so many seconds. */
export interface RateLimit {
  /** Requests allowed per window and key. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/** A key's use of a limit in its current window. */
export interface RateLimitUse {
  /** Requests counted in the window, the last one included. */
  readonly consumed: number;
  /** Requests still allowed in the window. */
  readonly remaining: number;
  /** Milliseconds until the window ends. */
  readonly msBeforeReset: number;
}

/** The counts of one limit, per key. */
export interface RateLimitCounter {
  /** Counts one request of `key`; `allowed` is false when it is past the limit. */
  consume(key: string): Promise<{ readonly allowed: boolean; readonly use: RateLimitUse }>;
  /** The use of `key` without counting, or undefined when it has none in the current window. */
  peek(key: string): Promise<RateLimitUse | undefined>;
}

/** Where the rate limits keep their counts: one process's memory, or a store that instances share. */
export interface RateLimitStore {
  /**
   * The counter of `limit`, named `policy` (its keys in a shared store begin with it). A shared
   * store that cannot answer lets the process decide alone, an insurance limit of the same
   * size, and calls `decidedAlone` each time it does.
   */
  counter(policy: string, limit: RateLimit, decidedAlone: () => void): RateLimitCounter;
}
