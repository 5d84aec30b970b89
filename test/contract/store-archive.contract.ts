// The behaviour every StoreArchive adapter must have; the memory adapter is its reference.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type {
  ApiKeyLabel,
  ApiKeyStore,
  ArchivedApiKey,
  ArchivedIdempotencyRecord,
  ArchivedPet,
  CategoryId,
  Pet,
  PetId,
  PetName,
  PetRepository,
  StoreArchive,
} from '../../src/domain/index.js';

export interface StoreArchiveUnderTest {
  readonly archive: StoreArchive;
  /** The repository and key store of the same storage. */
  readonly pets: PetRepository;
  readonly apiKeys: ApiKeyStore;
  close(): Promise<void>;
}

const plainPet = (id: number, name = `pet ${id}`): Pet => ({
  id: id as PetId,
  name: name as PetName,
  categoryId: ((id % 7) - 3) as CategoryId,
  status: (['available', 'pending', 'sold'] as const)[id % 3]!,
});
const pet = (id: number, name = `pet ${id}`, version = 1): ArchivedPet => ({ ...plainPet(id, name), version });
const withoutVersion = ({ version: _version, ...fields }: ArchivedPet): Pet => fields;
const draft = (name: string) => ({ name: name as PetName, categoryId: 1 as CategoryId, status: 'sold' as const });
const digest = (n: number) => n.toString(16).padStart(64, '0');
const apiKey = (id: number, revoked: boolean): ArchivedApiKey => ({
  id: id as ArchivedApiKey['id'],
  digest: digest(id),
  callerId: `key-${digest(id).slice(0, 16)}`,
  label: `label ${id}` as ApiKeyLabel,
  scopes: ([['pets:read'], 'all', ['pets:read', 'pets:write']] as const)[id % 3]!,
  createdAt: new Date(Date.UTC(2026, 10, 26, 10, 0, id)),
  expiresAt: id % 2 === 0 ? new Date(Date.UTC(2027, 1, 26, 10, 0, id)) : null,
  revokedAt: revoked ? new Date(Date.UTC(2026, 10, 26, 11, 0, id)) : null,
});
const record = (scope: string, key: string, completed: Pet | null): ArchivedIdempotencyRecord => ({
  scope,
  key,
  token: `token of ${key}`,
  fingerprint: `fingerprint of ${key}`,
  pet: completed,
  expiresAt: new Date(Date.UTC(2099, 0, 1, 0, 0, 0, 5)),
  leaseExpiresAt: new Date(Date.UTC(2099, 0, 1, 0, 0, 0, 6)),
});

/** Every record of a table, read in pages of `limit`. */
async function readAll<R>(
  table: StoreArchive['pets'] | StoreArchive['apiKeys'] | StoreArchive['idempotencyRecords'],
  limit: number,
): Promise<R[]> {
  const all: R[] = [];
  let after: R | undefined;
  for (;;) {
    const page = (await (table.read as (after: R | undefined, limit: number) => Promise<readonly R[]>)(after, limit)) as R[];
    all.push(...page);
    if (page.length < limit) return all;
    after = page[page.length - 1];
  }
}

export function storeArchiveContract(adapterName: string, open: () => Promise<StoreArchiveUnderTest>): void {
  describe(`StoreArchive contract: ${adapterName}`, () => {
    let subject: StoreArchiveUnderTest;
    let archive: StoreArchive;
    beforeEach(async () => {
      subject = await open();
      archive = subject.archive;
    });
    afterEach(() => subject.close());

    it('reads nothing and counts nothing in an empty store', async () => {
      expect(await archive.pets.read(undefined, 10)).to.deep.equal([]);
      expect(await archive.apiKeys.read(undefined, 10)).to.deep.equal([]);
      expect(await archive.idempotencyRecords.read(undefined, 10)).to.deep.equal([]);
      expect([await archive.pets.count(), await archive.apiKeys.count(), await archive.idempotencyRecords.count()]).to.deep.equal([
        0, 0, 0,
      ]);
    });

    it('writes pets with their own ids and reads them back in id order, page after page, from any id', async () => {
      const pets = [9, 2, 5, 1, 40, 3].map((id) => pet(id));
      expect(await archive.pets.write(pets)).to.deep.equal({ kind: 'written', written: 6 });
      const inOrder = [...pets].sort((a, b) => a.id - b.id);
      expect(await readAll<ArchivedPet>(archive.pets, 4)).to.deep.equal(inOrder);
      expect(await readAll<ArchivedPet>(archive.pets, 1)).to.deep.equal(inOrder);
      expect(await archive.pets.read(pet(4), 2), 'after an id that is not stored').to.deep.equal([pet(5), pet(9)]);
      expect(await archive.pets.count()).to.equal(6);
      expect(await subject.pets.list({ limit: 10 }), 'the repository sees them').to.deep.equal(inOrder.map(withoutVersion));
    });

    it('writes each pet at its own version and reads it back with it: the repository sees that version, and changes it from there', async () => {
      expect(await archive.pets.write([pet(1), pet(2, 'Rex', 7), pet(3, 'Mia', 2)])).to.deep.equal({ kind: 'written', written: 3 });
      expect(await readAll<ArchivedPet>(archive.pets, 2)).to.deep.equal([pet(1), pet(2, 'Rex', 7), pet(3, 'Mia', 2)]);
      const stored = await subject.pets.findVersioned(2 as PetId);
      expect(O.isSome(stored) && stored.value).to.deep.equal({ pet: plainPet(2, 'Rex'), version: 7 });
      const changed = await subject.pets.update(2 as PetId, 7, draft('Rex II'));
      expect(O.isSome(changed) && changed.value.version).to.equal(8);
      expect(await archive.pets.read(pet(1), 1)).to.deep.equal([{ ...plainPet(2, 'Rex II'), categoryId: 1, status: 'sold', version: 8 }]);
    });

    it('refuses a pet stored with the same fields at another version as a conflict', async () => {
      await archive.pets.write([pet(1), pet(2, 'Rex', 3)]);
      expect(await archive.pets.write([pet(2, 'Rex', 3)])).to.deep.equal({ kind: 'written', written: 0 });
      expect(await archive.pets.write([pet(1, 'pet 1', 2)])).to.deep.equal({ kind: 'conflict', conflicting: [pet(1, 'pet 1', 2)] });
      expect(await archive.pets.write([pet(2)])).to.deep.equal({ kind: 'conflict', conflicting: [pet(2)] });
    });

    it('tells the pet ids issued, deleted ones included: 0 before the first pet, and never less than a stored id', async () => {
      expect(await archive.petIdsIssued()).to.equal(0);
      for (let i = 0; i < 5; i += 1) await subject.pets.create(draft(`pet ${i}`));
      for (const id of [5, 4]) expect(await subject.pets.remove(id as PetId, 1)).to.equal(true);
      expect(await archive.petIdsIssued()).to.equal(5);
      await archive.pets.write([pet(12)]);
      expect(await archive.petIdsIssued()).to.be.at.least(12);
    });

    it("continues the pets' sequence after the ids issued it is given, when they are above every stored id; never lowers it", async () => {
      await archive.pets.write([pet(1), pet(3)]);
      await archive.continueSequences(5);
      expect(await archive.petIdsIssued()).to.equal(5);
      expect((await subject.pets.create(draft('next'))).id).to.equal(6);
      await archive.continueSequences(2);
      expect((await subject.pets.create(draft('then'))).id).to.equal(7);
    });

    it('reads a snapshot as the store stood when it began: what is written meanwhile is not in it', async () => {
      for (const name of ['a', 'b', 'c']) await subject.pets.create(draft(name));
      await archive.idempotencyRecords.write([record('scope', 'before', null)]);
      const seen = await archive.snapshot(async (snapshot) => {
        const first = await snapshot.pets.read(undefined, 2);
        await subject.pets.create(draft('meanwhile'));
        await archive.idempotencyRecords.write([record('scope', 'meanwhile', null)]);
        const rest = await snapshot.pets.read(first.at(-1), 10);
        return {
          names: [...first, ...rest].map(({ name }) => name),
          pets: await snapshot.pets.count(),
          records: (await snapshot.idempotencyRecords.read(undefined, 10)).map(({ key }) => key),
          issued: await snapshot.petIdsIssued(),
        };
      });
      expect(seen).to.deep.include({ names: ['a', 'b', 'c'], pets: 3, records: ['before'] });
      // Never less than an id the snapshot holds (a PostgreSQL sequence, outside transactions, may be past it).
      expect(seen.issued).to.be.at.least(3);
      expect(await archive.pets.count(), 'the write was made').to.equal(4);
    });

    it('changes nothing when a batch is written again, in part or whole', async () => {
      await archive.pets.write([pet(1), pet(2)]);
      expect(await archive.pets.write([pet(1), pet(2), pet(3)])).to.deep.equal({ kind: 'written', written: 1 });
      expect(await archive.pets.write([pet(1), pet(2), pet(3)])).to.deep.equal({ kind: 'written', written: 0 });
      expect(await readAll<ArchivedPet>(archive.pets, 10)).to.deep.equal([pet(1), pet(2), pet(3)]);
    });

    it('refuses a batch with a pet whose id is stored with other content: it names it, and writes nothing of the batch', async () => {
      await archive.pets.write([pet(1), pet(2)]);
      const other = pet(2, 'another name');
      expect(await archive.pets.write([pet(5), other, pet(1)])).to.deep.equal({ kind: 'conflict', conflicting: [other] });
      expect(await readAll<ArchivedPet>(archive.pets, 10)).to.deep.equal([pet(1), pet(2)]);
    });

    it('continues the sequences: the next pet and the next key created get ids above every written one', async () => {
      await subject.pets.create({ name: 'first' as PetName, categoryId: 1 as CategoryId, status: 'available' });
      await archive.pets.write([pet(500), pet(70)]);
      await archive.apiKeys.write([apiKey(30, false)]);
      await archive.continueSequences();
      await archive.continueSequences();
      const next = await subject.pets.create({ name: 'next' as PetName, categoryId: 1 as CategoryId, status: 'sold' });
      expect(next.id).to.equal(501);
      const key = await subject.apiKeys.create({
        digest: digest(999),
        callerId: 'key-x',
        label: '' as ApiKeyLabel,
        scopes: 'all',
        createdAt: new Date(),
        expiresAt: null,
      });
      expect(key.id).to.equal(31);
    });

    it("makes the next pet created get an id above every written idempotency record's pet; a refused write moves nothing", async () => {
      await subject.pets.create(draft('first'));
      const records = [record('scope', 'a', plainPet(9)), record('scope', 'b', null), record('scope', 'c', plainPet(4))];
      expect(await archive.idempotencyRecords.write(records)).to.deep.equal({ kind: 'written', written: 3 });
      expect((await subject.pets.create(draft('next'))).id).to.equal(10);
      const other = record('scope', 'a', plainPet(50));
      expect(await archive.idempotencyRecords.write([other])).to.deep.equal({ kind: 'conflict', conflicting: [other] });
      expect((await subject.pets.create(draft('then'))).id).to.equal(11);
      expect(await archive.petIdsIssued()).to.equal(11);
    });

    it('never lowers a sequence', async () => {
      await archive.pets.write([pet(3)]);
      await archive.continueSequences();
      for (let i = 0; i < 4; i += 1) await subject.pets.create({ name: 'n' as PetName, categoryId: 1 as CategoryId, status: 'sold' });
      await archive.continueSequences();
      expect((await subject.pets.create({ name: 'n' as PetName, categoryId: 1 as CategoryId, status: 'sold' })).id).to.equal(8);
    });

    it('writes and reads API keys with their digests, scopes, times, expiries and revocations, and refuses another key under a stored id', async () => {
      const keys = [apiKey(1, false), apiKey(2, true), apiKey(4, false)];
      expect(await archive.apiKeys.write(keys)).to.deep.equal({ kind: 'written', written: 3 });
      expect(await archive.apiKeys.write(keys)).to.deep.equal({ kind: 'written', written: 0 });
      expect(await readAll<ArchivedApiKey>(archive.apiKeys, 2)).to.deep.equal(keys);
      const changed = { ...apiKey(2, false) };
      expect(await archive.apiKeys.write([changed])).to.deep.equal({ kind: 'conflict', conflicting: [changed] });
      expect((await subject.apiKeys.list()).map((k) => k.id)).to.deep.equal([1, 2, 4]);
      const otherScopes = { ...apiKey(4, false), scopes: ['pets:write' as const] };
      expect(await archive.apiKeys.write([otherScopes])).to.deep.equal({ kind: 'conflict', conflicting: [otherScopes] });
    });

    it('neither reads nor writes the last use of a key: a restored key is not used yet, and a used one writes again as no change', async () => {
      const keys = [apiKey(1, false), apiKey(2, false)];
      await archive.apiKeys.write(keys);
      expect((await subject.apiKeys.list()).map((k) => k.lastUsedAt)).to.deep.equal([null, null]);
      await subject.apiKeys.recordUse(keys[0]!.id, new Date(Date.UTC(2026, 10, 27)));
      expect(await readAll<ArchivedApiKey>(archive.apiKeys, 10)).to.deep.equal(keys);
      expect(await archive.apiKeys.write(keys)).to.deep.equal({ kind: 'written', written: 0 });
    });

    it('writes and reads idempotency records, in progress and completed, in order of scope then key by code point', async () => {
      const records = [
        record('key-b', 'k1', null),
        record('key-a', 'z', plainPet(7, 'Rex 🐕')),
        record('key-a', 'B', null),
        record('key-é', 'a', plainPet(8)),
        record('Key-A', 'a', null),
      ];
      expect(await archive.idempotencyRecords.write(records)).to.deep.equal({ kind: 'written', written: 5 });
      expect(await archive.idempotencyRecords.write(records)).to.deep.equal({ kind: 'written', written: 0 });
      const expected = [records[4], records[2], records[1], records[0], records[3]];
      const read = await readAll<ArchivedIdempotencyRecord>(archive.idempotencyRecords, 2);
      expect(read).to.deep.equal(expected);
      // An export is the same bytes from every storage: a pet's keys in the interface's order.
      expect(read.map((r) => JSON.stringify(r.pet))).to.deep.equal(expected.map((r) => JSON.stringify(r!.pet)));
      expect(await archive.idempotencyRecords.count()).to.equal(5);
      const changed = { ...records[0]!, fingerprint: 'another' };
      expect(await archive.idempotencyRecords.write([changed])).to.deep.equal({ kind: 'conflict', conflicting: [changed] });
    });
  });
}
