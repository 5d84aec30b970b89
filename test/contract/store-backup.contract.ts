// The StoreBackup contract: what every adapter of the port does, run against each of them. A
// storage that is one file takes a copy that opens with every pet; the others refuse, naming
// the tool that backs them up (or none), and write nothing.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { CategoryId, PetName, PetRepository, StoreBackup } from '../../src/domain/index.js';
import { tempDir } from '../support/temp-dir.js';

/** A backup, the pets of its storage, and (for a storage that is one file) how to read a copy's pets. */
export interface BackupUnderTest {
  readonly backup: StoreBackup;
  readonly pets: PetRepository;
  /** The pets of the copy at `file`, read as the storage reads them; undefined for a storage that cannot back up. */
  readonly copyOpener: ((file: string) => { pets: PetRepository; close(): void }) | undefined;
  close(): Promise<void>;
}

/** The contract, for the backup that `open` makes fresh for each test. */
export function storeBackupContract(name: string, open: () => Promise<BackupUnderTest>): void {
  describe(`StoreBackup contract: ${name}`, () => {
    let subject: BackupUnderTest;
    let dir: ReturnType<typeof tempDir>;
    beforeEach(async () => {
      subject = await open();
      dir = tempDir('petstore-backup-');
    });
    afterEach(async () => {
      await subject.close();
      dir.remove();
    });

    it('takes a copy that opens with every pet, over an older file of the name, leaving nothing else; or refuses and writes nothing', async () => {
      const created = [];
      for (let i = 0; i < 25; i++)
        created.push(await subject.pets.create({ name: `pet ${i}` as PetName, categoryId: 1 as CategoryId, status: 'available' }));
      const file = join(dir.path, 'copy.db');
      writeFileSync(file, 'an older file of the name');
      const heard: Array<[number, number]> = [];
      const outcome = await subject.backup.backup(file, (done, total) => heard.push([done, total]));
      if (subject.copyOpener === undefined) {
        expect(outcome.kind).to.equal('unsupported');
        expect(readdirSync(dir.path), 'nothing written').to.deep.equal(['copy.db']);
        return;
      }
      expect(outcome.kind).to.equal('taken');
      const pages = outcome.kind === 'taken' ? outcome.pages : 0;
      expect(pages).to.be.above(0);
      expect(heard.at(-1), 'the last progress is every page').to.deep.equal([pages, pages]);
      for (const [done, total] of heard) expect(done).to.be.within(0, total);
      expect(readdirSync(dir.path), 'no partial file left').to.deep.equal(['copy.db']);
      const copy = subject.copyOpener(file);
      try {
        for (const pet of created) expect(await copy.pets.findById(pet.id)).to.deep.equal(O.some(pet));
      } finally {
        copy.close();
      }
    });

    it('refuses, or fails, without leaving a file when the folder does not exist', async () => {
      const file = join(dir.path, 'missing', 'copy.db');
      const outcome = await subject.backup.backup(file).catch((err: unknown) => err);
      expect(outcome instanceof Error || (outcome as { kind: string }).kind === 'unsupported', String(outcome)).to.equal(true);
      expect(existsSync(join(dir.path, 'missing'))).to.equal(false);
    });
  });
}
