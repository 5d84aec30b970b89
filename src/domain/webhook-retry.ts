// When a failed webhook delivery is tried again: exponential backoff with jitter, the first
// retry within seconds (a receiver that restarts is back soon), the last about 7 hours after
// the first attempt; after that the delivery has failed.

/** The delay before each retry: after the 1st attempt 5 s, after the 2nd 30 s, then 2 min, 10 min, 1 h, 6 h. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/** Each delay is stretched or shrunk by up to this fraction, at random, so that deliveries failed together do not come back together. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/** How many attempts a delivery gets at most: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/**
 * When to try a delivery again once its `attempts`-th attempt (1 for the first) failed at
 * `failedAt`; undefined when that was the last attempt. `random` is a number in [0, 1): 0.5
 * gives the delay itself, 0 the delay less 20 %, towards 1 the delay plus 20 %.
 */
export function nextWebhookAttemptAt(attempts: number, failedAt: Date, random: number): Date | undefined {
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return undefined;
  const jittered = delay * (1 + WEBHOOK_RETRY_JITTER * (2 * random - 1));
  return new Date(failedAt.getTime() + Math.round(jittered));
}
