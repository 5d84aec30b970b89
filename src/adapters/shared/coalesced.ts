// One call at a time of a statement whose every run does the work of all the calls before it
// (put the outbox in order, notify the relays): the calls made while a run is under way share
// the one run after it, so a burst costs two runs, however many calls it makes.

/**
 * `run`, called at most once at a time. A call made while a run is under way is answered by the
 * next run, which starts once that one has settled and is shared by every call made meanwhile:
 * each call is answered by a run that started after it.
 */
export function coalesced(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const started: Promise<void> = run().finally(() => {
      if (running === started) running = undefined;
    });
    running = started;
    return started;
  };
  return () => {
    if (running === undefined) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
