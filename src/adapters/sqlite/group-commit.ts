// Group commit: the writes asked for during one turn of the event loop are made in one
// transaction, so that they share one COMMIT, and so one fsync (synchronous = FULL), instead
// of paying one each. Durability is unchanged: no write is answered before the COMMIT that
// holds it has returned, and a COMMIT that fails fails every write it held (none is stored).
// Each write has a savepoint of its own, so one that fails is undone alone: the others commit.
// There is one group commit per connection, whichever adapter writes: the relay's marks ride
// in the transaction of the creates beside them instead of paying a flush of their own.
import type { Database } from 'better-sqlite3';
import { type WriteOutcome, writeBatches } from '../shared/write-batches.js';

/**
 * Makes `write()` in the transaction shared with the other writes of the same event-loop turn
 * on its connection, and answers its result once that transaction is committed. `write` runs
 * inside the transaction and must not start one itself.
 */
export type GroupCommit = <O>(write: () => O) => Promise<O>;

const ofConnection = new WeakMap<Database, GroupCommit>();

/** The group commit of `db`: the same for every caller, so that all its writes of a turn share one transaction. */
export function groupCommit(db: Database): GroupCommit {
  let commit = ofConnection.get(db);
  if (commit === undefined) {
    commit = startGroupCommit(db);
    ofConnection.set(db, commit);
  }
  return commit;
}

function startGroupCommit(db: Database): GroupCommit {
  // Called inside writeAll's transaction, better-sqlite3 makes this one a savepoint.
  const writeOne = db.transaction((write: () => unknown) => write());
  const writeAll = db.transaction((writes: readonly (() => unknown)[]) =>
    writes.map((write): WriteOutcome<unknown> => {
      try {
        return { ok: true, output: writeOne(write) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  // IMMEDIATE: the write lock is taken at BEGIN (waiting busy_timeout for another process's
  // writes). A deferred transaction whose first write comes after a read, as a completing
  // create's check does, fails at once (SQLITE_BUSY) when another process wrote meanwhile.
  // A BEGIN or COMMIT that fails throws after rolling back: every write of the batch fails, none is stored.
  const write = writeBatches((writes: readonly (() => unknown)[]) => writeAll.immediate(writes));
  // Each write's output is the one its own function returned.
  return <O>(one: () => O) => write(one) as Promise<O>;
}
