// Group commit: the writes asked for during one turn of the event loop are made in one
// transaction, so that they share one COMMIT, and so one fsync (synchronous = FULL), instead
// of paying one each. Durability is unchanged: no write is answered before the COMMIT that
// holds it has returned, and a COMMIT that fails fails every write it held (none is stored).
// Each write has a savepoint of its own, so one that fails is undone alone: the others commit.
import type { Database } from 'better-sqlite3';
import { type WriteOutcome, writeBatches } from '../shared/write-batches.js';

/**
 * A function that makes `write(item)` in a transaction shared with the other calls of the
 * same event-loop turn, and answers its result once that transaction is committed.
 * `write` runs inside the transaction and must not start one itself.
 */
export function groupCommit<I, O>(db: Database, write: (item: I) => O): (item: I) => Promise<O> {
  // Called inside writeAll's transaction, better-sqlite3 makes this one a savepoint.
  const writeOne = db.transaction(write);
  const writeAll = db.transaction((items: readonly I[]) =>
    items.map((item): WriteOutcome<O> => {
      try {
        return { ok: true, output: writeOne(item) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  // IMMEDIATE: the write lock is taken at BEGIN (waiting busy_timeout for another process's
  // writes). A deferred transaction whose first write comes after a read, as a completing
  // create's check does, fails at once (SQLITE_BUSY) when another process wrote meanwhile.
  // A BEGIN or COMMIT that fails throws after rolling back: every write of the batch fails, none is stored.
  return writeBatches((items: readonly I[]) => writeAll.immediate(items));
}
