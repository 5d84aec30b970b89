// The inventory on PostgreSQL: the count of pets per status, kept by statement-level triggers
// in the transaction of every change of pets, whoever writes it. The counts are spread over
// slots: each transaction adds its change to the slot of its connection's backend, so the
// instances of a fleet, and the connections of one, do not queue on one row; a read sums the
// slots of each status, in one statement and so at one moment
// (docs/decisions/0027-orders-and-the-inventory.md).

/** How many slots each status's count is spread over. */
export const PET_COUNT_SLOTS = 64;

const SLOT = `pg_backend_pid() % ${PET_COUNT_SLOTS}`;

/** Adds the (status, delta) rows of `deltas` to the counts, in this connection's slot. */
const addCounts = (deltas: string) =>
  `INSERT INTO pet_counts (status, slot, count)
     SELECT status, ${SLOT}, sum(delta) FROM (${deltas}) d GROUP BY status HAVING sum(delta) <> 0
   ON CONFLICT (status, slot) DO UPDATE SET count = pet_counts.count + excluded.count;`;

/** A trigger function named `name` that adds `deltas` to the counts. */
const countingFunction = (name: string, deltas: string) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN ${addCounts(deltas)} RETURN NULL; END $$;`;

/** The counts' table, the pets counted once, and the triggers that keep the counts. */
export const PET_COUNTS_SQL = `CREATE TABLE pet_counts (
    status text    NOT NULL,
    slot   integer NOT NULL,
    count  bigint  NOT NULL,
    PRIMARY KEY (status, slot)
  );
  INSERT INTO pet_counts (status, slot, count) SELECT status, 0, count(*) FROM pets GROUP BY status;
  ${countingFunction('pets_counted_insert', 'SELECT status, 1 AS delta FROM new_pets')}
  ${countingFunction('pets_counted_update', 'SELECT status, 1 AS delta FROM new_pets UNION ALL SELECT status, -1 FROM old_pets')}
  ${countingFunction('pets_counted_delete', 'SELECT status, -1 AS delta FROM old_pets')}
  CREATE TRIGGER pets_counted_insert AFTER INSERT ON pets REFERENCING NEW TABLE AS new_pets
    FOR EACH STATEMENT EXECUTE FUNCTION pets_counted_insert();
  CREATE TRIGGER pets_counted_update AFTER UPDATE ON pets REFERENCING OLD TABLE AS old_pets NEW TABLE AS new_pets
    FOR EACH STATEMENT EXECUTE FUNCTION pets_counted_update();
  CREATE TRIGGER pets_counted_delete AFTER DELETE ON pets REFERENCING OLD TABLE AS old_pets
    FOR EACH STATEMENT EXECUTE FUNCTION pets_counted_delete();`;

/** The inventory: each status's slots summed, in one statement. */
export const SELECT_PET_COUNTS = 'SELECT status, sum(count)::text AS count FROM pet_counts GROUP BY status';
