// The relay's own bookkeeping on PostgreSQL (positions given, positions taken, the NOTIFY that
// wakes it) commits without waiting for its WAL flush: a crash may lose the last of it, at no
// cost but a redelivery with the same ids, or a wake-up that the poll makes up for. A later
// commit that waits flushes it first, as the WAL is written in order; meanwhile the changes'
// commits do not queue behind its flushes (docs/decisions/0030-events-notified-after-the-commit.md).

/** In a statement's select list: its transaction commits without waiting for the flush (synchronous_commit off, for it alone). */
export const UNFLUSHED = "set_config('synchronous_commit', 'off', true)";
