// Batches of writes, for group commit: the writes asked for during one turn of the event loop
// go to the database together, so that they share one transaction and so one flush, instead
// of paying one each. One batch is written at a time: the writes asked for while a batch is
// being written wait for it, then go together in the next. Durability is the writer's: no
// write is answered before the batch that holds it says so.
// Shared by the SQLite adapter (a synchronous writer) and the PostgreSQL adapter (a network one).

/** What became of one write of a batch: its output, or why it failed. */
export type WriteOutcome<O> = { readonly ok: true; readonly output: O } | { readonly ok: false; readonly error: unknown };

/**
 * Writes a batch: one outcome per item, in the items' order. Throwing (or rejecting) fails
 * every write of the batch: the writer must then have stored none of them.
 */
export type BatchWriter<I, O> = (items: readonly I[]) => readonly WriteOutcome<O>[] | Promise<readonly WriteOutcome<O>[]>;

interface Pending<I, O> {
  readonly item: I;
  resolve(output: O): void;
  reject(reason: unknown): void;
}

/** A function that hands `item` to `writeBatch` with the other writes of its turn, and answers its outcome. */
export function writeBatches<I, O>(writeBatch: BatchWriter<I, O>): (item: I) => Promise<O> {
  let waiting: Pending<I, O>[] = [];
  let writing = false;
  let scheduled = false;

  const settle = (batch: readonly Pending<I, O>[], outcomes: readonly WriteOutcome<O>[]): void => {
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined)
        pending.reject(new Error(`the batch writer answered ${outcomes.length} outcomes for ${batch.length} writes`));
      else if (outcome.ok) pending.resolve(outcome.output);
      else pending.reject(outcome.error);
    });
  };

  const writeWaiting = async (): Promise<void> => {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    writing = true;
    try {
      settle(batch, await writeBatch(batch.map((pending) => pending.item)));
    } catch (err) {
      for (const pending of batch) pending.reject(err);
    } finally {
      writing = false;
      if (waiting.length > 0) schedule();
    }
  };

  // setImmediate runs after the I/O of this turn: every request read in it joins the batch.
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void writeWaiting());
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!writing) schedule();
    });
}
