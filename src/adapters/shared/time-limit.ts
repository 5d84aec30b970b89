// Awaiting work of someone else's for a bounded time: code that must go on (a relay's pass, a
// shutdown) cannot wait on a promise that may never settle.

/** The fault of work that did not settle within its time limit. */
export class TimeLimitExceeded extends Error {
  override readonly name = 'TimeLimitExceeded';
}

/**
 * Settles as `work` does, or rejects with a TimeLimitExceeded naming `what` once `limitMs` have
 * passed. The work itself goes on: only the wait for it ends.
 */
export async function withinTimeLimit<T>(work: PromiseLike<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const exceeded = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded(`${what} did not settle within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([work, exceeded]);
  } finally {
    clearTimeout(timer);
  }
}
