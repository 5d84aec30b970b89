// The typed client's calls of interface 1.1 against the real service: updatePet, deletePet and
// the ETag of a pet, every answer checked against docs/openapi.yaml.
import { expect } from 'chai';
import { PetStoreClient } from '../../src/client/index.js';
import { checkedFetch } from '../support/checked-fetch.js';
import { clientEachTest, failure } from '../support/client-under-test.js';
import { TEST_API_KEY } from '../support/test-server.js';

describe('the typed client, pets that change', () => {
  const live = clientEachTest();

  it('changes a pet, with and without ifMatch, and answers its new ETag', async () => {
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1 });
    const read = await live.client.getPetWithETag(rex.id);
    expect(read).to.deep.equal({ pet: rex, etag: `"${rex.id}-1"` });
    const pending = await live.client.updatePet(rex.id, { status: 'pending' }, { ifMatch: read.etag });
    expect(pending).to.deep.equal({ pet: { ...rex, status: 'pending' }, etag: `"${rex.id}-2"` });
    const stale = await failure(live.client.updatePet(rex.id, { name: 'Late' }, { ifMatch: read.etag }));
    expect([stale.status, stale.code]).to.deep.equal([412, 'precondition_failed']);
    const sold = await live.client.updatePet(rex.id, { status: 'sold' });
    expect(sold.pet.status).to.equal('sold');
    const back = await failure(live.client.updatePet(rex.id, { status: 'available' }));
    expect([back.status, back.code]).to.deep.equal([409, 'invalid_transition']);
    expect(await live.client.getPet(rex.id)).to.deep.equal(sold.pet);
  });

  it('tells an invalid transition with the statuses allowed, typed', async () => {
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1, status: 'sold' });
    const refused = await failure(live.client.updatePet(rex.id, { status: 'pending' }));
    expect(refused.code).to.equal('invalid_transition');
    const [detail] = refused.details;
    expect([detail?.field, detail?.currentStatus, detail?.allowedStatuses]).to.deep.equal(['/status', 'sold', []]);
  });

  it('tells a change or deletion answered on a retry by its attempts: the 412 or 404 may be its own first attempt', async () => {
    // The first attempt of each call reaches the service, whose answer is lost to a 502 of a proxy.
    let calls = 0;
    const firstAnswerLost: typeof fetch = async (input, init) => {
      const res = await checkedFetch(input, init);
      calls += 1;
      return calls === 1 ? new Response('Bad Gateway', { status: 502 }) : res;
    };
    const retrying = new PetStoreClient({
      baseUrl: `${live.url}/v1`,
      apiKey: TEST_API_KEY,
      fetch: firstAnswerLost,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 10 },
    });
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1 });
    const changed = await failure(retrying.updatePet(rex.id, { status: 'sold' }, { ifMatch: `"${rex.id}-1"` }));
    expect([changed.code, changed.attempts]).to.deep.equal(['precondition_failed', 2]);
    expect((await live.client.getPet(rex.id)).status, 'the first attempt went through').to.equal('sold');
    calls = 0;
    const deleted = await failure(retrying.deletePet(rex.id));
    expect([deleted.code, deleted.attempts]).to.deep.equal(['pet_not_found', 2]);
    expect((await live.client.listPets()).pets).to.deep.equal([]);
    // Not retried: one attempt.
    expect((await failure(live.client.deletePet(rex.id))).attempts).to.equal(1);
  });

  it('deletes a pet, conditionally when asked; a second deletion is pet_not_found', async () => {
    const rex = await live.client.createPet({ name: 'Rex', categoryId: 1 });
    const stale = await failure(live.client.deletePet(rex.id, { ifMatch: `"${rex.id}-7"` }));
    expect(stale.code).to.equal('precondition_failed');
    expect(await live.client.deletePet(rex.id, { ifMatch: `"${rex.id}-1"` })).to.equal(undefined);
    expect((await failure(live.client.deletePet(rex.id))).code).to.equal('pet_not_found');
    expect((await live.client.listPets()).pets).to.deep.equal([]);
  });
});
