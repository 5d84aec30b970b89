// The advisory lock that orders inserts into pets (PostgresPetRepository.create): class "petI",
// keyed by the schema, so that services on different schemas of one database never wait for
// each other. A module of its own, with no import, so that the bench's group-commit floor
// (bench/baseline-postgres.ts), which runs none of the adapter, takes the very same lock.

/** The arguments of `pg_advisory_xact_lock(…)`, as SQL. */
export const INSERT_ORDER_LOCK = `${0x70657449}, hashtext(current_schema())`;
