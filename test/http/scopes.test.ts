// Every operation under /v1 needs the one scope its security requirement in docs/openapi.yaml
// names: driven from the document, so an operation added later is checked from its first day.
// A credential without the scope gets 403 before anything is read or written; one holding only
// that scope gets past the check.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { load } from 'js-yaml';
import { ALL_SCOPES, type CredentialVerifier, isScope, type Scope } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { clientFor } from '../support/http-client.js';
import { forEveryHttpStorage } from '../support/http-storages.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly scope: Scope;
}

type Document = { paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, string[]>> }>> };
const document = load(readFileSync('docs/openapi.yaml', 'utf8')) as Document;

/** The operations under /v1 (those with a security requirement), each with the scope it declares. */
const OPERATIONS: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method, operation]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method) && operation.security?.length !== 0)
    .map(([method, operation]) => {
      const scopes = operation.security?.[0]?.['bearer'] ?? [];
      expect(scopes, `${operation.operationId} declares one scope`).to.have.length(1);
      expect(isScope(scopes[0]!), `${operation.operationId}: ${scopes[0]} is a scope`).to.equal(true);
      return { method: method.toUpperCase(), path, operationId: operation.operationId!, scope: scopes[0] as Scope };
    }),
);

/** Credentials named after what they hold: `only-<scope>` holds that scope, `all-but-<scope>` every other one. */
const credentialOf = (kind: 'only' | 'all-but', scope: Scope) => `${kind}-${scope.replace(':', '-')}-0123456789`;
const scopedVerifier: CredentialVerifier = {
  verify(credential) {
    for (const scope of ALL_SCOPES) {
      if (credential === credentialOf('only', scope))
        return Promise.resolve({ kind: 'accepted', caller: { id: `only-${scope}`, scopes: new Set([scope]) } });
      if (credential === credentialOf('all-but', scope)) {
        const others = new Set([...ALL_SCOPES].filter((other) => other !== scope));
        return Promise.resolve({ kind: 'accepted', caller: { id: `all-but-${scope}`, scopes: others } });
      }
    }
    return Promise.resolve({ kind: 'unknown' });
  },
};

describe('scopes: every operation needs the one its security requirement names', () => {
  it('knows every operation of the document under /v1, and only scopes of this release', () => {
    expect(OPERATIONS.map((op) => op.operationId)).to.include.members(['listPets', 'createPet', 'getPet', 'updatePet', 'deletePet']);
  });

  it('lists each operation with its scope in docs/security.md, as the document declares it', () => {
    const security = readFileSync('docs/security.md', 'utf8');
    for (const { operationId, scope } of OPERATIONS) {
      expect(security, operationId).to.match(new RegExp(`\\(\`${operationId}\`\\)\\s*\\|\\s*\`${scope}\`\\s*\\|`));
    }
  });
});

forEveryHttpStorage((name, database) => {
  describe(`scopes on ${name}: each operation refused without its scope, served with it`, () => {
    let server: TestServer;
    let petPath: string;
    let cleanup: () => void | Promise<void> = () => {};
    before(async () => {
      const db = await database();
      cleanup = db.cleanup;
      server = await startTestServer(db.config, {
        configure: (c) => c.rebind<CredentialVerifier>(TOKENS.CredentialVerifier).toConstantValue(scopedVerifier),
      });
    });
    after(async () => {
      await server.close();
      await cleanup();
    });
    beforeEach(async () => {
      const created = await clientFor(server.url, credentialOf('only', 'pets:write')).postJson('/v1/pets', {
        name: 'Scoped',
        categoryId: 1,
      });
      expect(created.status).to.equal(201);
      petPath = `/v1/pets/${(created.json as { id: number }).id}`;
    });
    const reader = () => clientFor(server.url, credentialOf('only', 'pets:read'));

    /** `operation` sent with `credential` and, for a write, a body no reader would accept. */
    const send = (operation: Operation, credential: string) =>
      clientFor(server.url, credential).send(`/v1${operation.path.replace(/\{[^}]+\}/g, petPath.split('/').pop()!)}`, {
        method: operation.method,
        headers: { 'Content-Type': 'application/json' },
        ...(['POST', 'PATCH', 'PUT'].includes(operation.method) ? { body: '{"not json' } : {}),
      });

    for (const operation of OPERATIONS) {
      it(`${operation.operationId}: refuses a credential without ${operation.scope} with 403, reading and writing nothing`, async () => {
        const before = await reader().get(petPath);
        const listBefore = await reader().get('/v1/pets?limit=100');
        const res = await send(operation, credentialOf('all-but', operation.scope));
        expect(res.status).to.equal(403);
        expect(res.json).to.include({ code: 'insufficient_scope', status: 403 });
        expect((res.json as { message: string }).message).to.contain(operation.scope);
        expect(res.headers['www-authenticate']).to.equal(`Bearer realm="petstore", error="insufficient_scope", scope="${operation.scope}"`);
        const after = await reader().get(petPath);
        expect(after.status, 'the pet is still there').to.equal(200);
        expect(after.headers['etag'], 'and unchanged').to.equal(before.headers['etag']);
        expect((await reader().get('/v1/pets?limit=100')).json, 'and no pet was added').to.deep.equal(listBefore.json);
      });

      it(`${operation.operationId}: lets a credential holding only ${operation.scope} past the check`, async () => {
        const res = await send(operation, credentialOf('only', operation.scope));
        expect(res.status, res.text).to.be.oneOf([200, 201, 204, 400, 404]);
        if (operation.method === 'POST' || operation.method === 'PATCH') expect(res.json).to.include({ code: 'malformed_json' });
      });
    }
  });
});
