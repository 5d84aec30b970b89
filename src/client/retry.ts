// When the client tries a call again, and how long it waits first.

/**
 * How a call is retried. Repeating a call changes nothing more than its first attempt: reads
 * change nothing, a creation carries an Idempotency-Key, and a change or deletion done once is
 * not done again (but a retry of one that got through answers 412, or 404 for a deletion).
 */
export interface RetryPolicy {
  /** Attempts in all, the first included; 1 turns retries off. Default 4. */
  readonly attempts: number;
  /** The first wait, in ms; each later wait may be twice as long. Default 200. */
  readonly baseDelayMs: number;
  /** The longest wait, in ms. An answer that asks for a longer Retry-After is not retried. Default 5000. */
  readonly maxDelayMs: number;
}

/** The default policy: 4 attempts, waits drawn up to 200, 400, 800 ms, at most 5 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 200, maxDelayMs: 5000 };

/**
 * Statuses worth another attempt: the request may not have been processed (408), another
 * attempt with the same key is still running (409 idempotency_key_in_use), too many requests
 * (429), or a fault of the service or of a proxy on the way (5xx).
 */
export const isRetryableStatus = (status: number, code: string | undefined): boolean =>
  status === 408 || status === 429 || status >= 500 || (status === 409 && code === 'idempotency_key_in_use');

/**
 * The wait before attempt `attempt` (2, 3, …): "full jitter" backoff, a random time up to
 * base × 2^(attempt−2), capped; never shorter than the Retry-After the service asked for.
 * Undefined when that is longer than the policy allows: the caller should not retry.
 */
export function delayBefore(
  attempt: number,
  policy: RetryPolicy,
  retryAfterSeconds: number | undefined,
  random = Math.random,
): number | undefined {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 2));
  const jittered = Math.floor(random() * ceiling);
  if (retryAfterSeconds === undefined) return jittered;
  const asked = retryAfterSeconds * 1000;
  return asked > policy.maxDelayMs ? undefined : Math.max(asked, jittered);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
