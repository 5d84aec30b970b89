// One call at a time of a statement whose every run does the work of all the calls before it
// (notify the relays, put the outbox in order): the calls made while a run is under way share
// the one run after it (coalesced), or that run itself (joined), so a burst costs two runs, or
// one, however many calls it makes.

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

/**
 * `run`, called at most once at a time, for work that may answer a call with a run already
 * under way (the outbox's ordering, for the transports' reads of one round: what commits just
 * after the run began is ordered by the next round's). A call while a run is under way is
 * answered by that run; one after it starts a new run.
 */
export function joined(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () =>
    (running ??= run().finally(() => {
      running = undefined;
    }));
}
