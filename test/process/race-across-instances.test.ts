// Two PATCHes with the same If-Match, one through each of two server processes on one
// PostgreSQL database: exactly one is answered 200 and the other 412, in every round. The race
// is made to happen on the write itself: the test holds the pet's row lock, so that both
// instances read the pet, pass If-Match and block on their compare-and-set; PostgreSQL's own
// pg_stat_activity shows both waiting before the lock is let go.
import { expect } from 'chai';
import { describeWithPostgres } from '../support/postgres.js';
import { rowLockRaceEachTest } from '../support/row-lock-race.js';
import { timeoutForProcesses } from '../support/server-process.js';

const KEY = 'race-across-instances-key-0123';
const ROUNDS = 12;

describeWithPostgres('a race of two conditional PATCHes across two server instances', () => {
  const race = rowLockRaceEachTest();

  it('answers one 200 and one 412 in every round, each round proven to race on the compare-and-set', async function () {
    // Two servers, and ROUNDS rounds of a create and two PATCHes held on a lock until both wait.
    this.timeout(timeoutForProcesses(2) + ROUNDS * 1_000);
    const { locker, waiting, serve } = race.current;
    const [a, b] = await serve(2, KEY, { PETSTORE_PG_POOL_SIZE: '2' });

    for (let round = 0; round < ROUNDS; round++) {
      const created = await a!.postJson('/v1/pets', { name: `racer ${round}`, categoryId: 1 });
      expect(created.status, created.text).to.equal(201);
      const { id } = created.json as { id: number };
      const etag = created.headers['etag'] as string;

      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM pets WHERE id = $1 FOR UPDATE', [id]);
      const patch = (api: typeof a, status: string) =>
        api!.send(`/v1/pets/${id}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
          body: JSON.stringify({ status }),
        });
      const answers = Promise.all([patch(a, 'pending'), patch(b, 'sold')]);
      // Both instances have read the pet and passed If-Match: their updates wait on the row.
      await waiting(2, 'UPDATE pets SET', `round ${round}: both updates waiting on the pet's row`);
      await locker.query('ROLLBACK');

      const [first, second] = await answers;
      const statuses = [first.status, second.status].sort();
      expect(statuses, `round ${round}: ${first.text} / ${second.text}`).to.deep.equal([200, 412]);
      const winner = first.status === 200 ? first : second;
      const loser = first.status === 412 ? first : second;
      expect((loser.json as { code: string }).code).to.equal('precondition_failed');
      // The pet is the winner's, at the next version, through either instance.
      const now = await b!.get(`/v1/pets/${id}`);
      expect(now.json).to.deep.equal(winner.json);
      expect(now.headers['etag']).to.equal(winner.headers['etag']).and.not.equal(etag);
    }
  });
});
