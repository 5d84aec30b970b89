// What one load run asks and answers, whichever program generates the load: wrk, or autocannon
// where wrk cannot be had (load-generator.ts chooses).
import type { BenchRequest } from '../scenarios/scenarios.js';

export interface LoadSpec {
  readonly origin: string;
  /** Sent in this order, again from the first after the last. */
  readonly requests: readonly BenchRequest[];
  /** Headers every request carries (the Authorization header). */
  readonly headers: Readonly<Record<string, string>>;
  readonly expectedStatus: number;
  readonly connections: number;
  /** Whole seconds: wrk counts no fractions. */
  readonly seconds: number;
}

export interface LoadResult {
  /** Expected answers only: a server that fails fast must not look fast. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  /** Answers that are errors, plus connection errors (timeouts included). */
  readonly failures: number;
  /** CPU time of a load generator that runs in a process of its own (wrk); absent when it ran in this one. */
  readonly generatorCpuSeconds?: number;
}

export interface LoadGenerator {
  readonly name: 'wrk' | 'autocannon';
  /** How it runs, for the log and the results. */
  describe(connections: number, seconds: number): string;
  /** Why its figures must be read with care, when they must. */
  readonly caveat?: string;
  run(spec: LoadSpec): Promise<LoadResult>;
}
