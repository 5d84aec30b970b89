// The Allow table of docs/errors.md is what the service answers: a row for every path of the
// pet operations, with the methods its OPTIONS and 405 answers list.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { API_BASE_PATH } from '../../src/adapters/http/create-http-app.js';
import { startHttpServer } from '../../src/adapters/http/http-server.js';
import { createPetStore } from '../../src/composition/pet-store.js';

/** The rows of the table under the heading `## 405 and Allow, OPTIONS`: path → Allow. */
function documentedAllow(): Map<string, string> {
  const doc = readFileSync('docs/errors.md', 'utf8');
  const section = doc.slice(doc.indexOf('## 405 and Allow, OPTIONS'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Path')));
  const rows = [...table.matchAll(/^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|$/gm)];
  return new Map(rows.map(([, path, allow]) => [path!, allow!]));
}

describe('the Allow table of docs/errors.md', () => {
  it('lists every path of the pet operations with the Allow header the service answers', async () => {
    const documented = documentedAllow();
    const store = await createPetStore();
    const server = await startHttpServer(store.app.callback(), { host: '127.0.0.1', port: 0 });
    try {
      // The router's paths in the table's notation: `:petId` written `{petId}`.
      const routed = new Set(
        store.router.stack
          .map((layer) => String(layer.path).replace(/:(\w+)/g, '{$1}'))
          .filter((path) => path.startsWith(`${API_BASE_PATH}/pets`)),
      );
      expect([...documented.keys()]).to.have.members([...routed]);
      for (const [path, allow] of documented) {
        const res = await fetch(`${server.url}${path.replace('{petId}', '1')}`, { method: 'OPTIONS' });
        expect(res.headers.get('allow'), path).to.equal(allow);
      }
    } finally {
      await server.close();
      await store.close();
    }
  });
});
