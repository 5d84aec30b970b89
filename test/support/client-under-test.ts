// The typed client against the real service in memory, for each test, every answer checked
// against docs/openapi.yaml; and the PetStoreError a call is expected to fail with.
import { PetStoreClient, PetStoreError } from '../../src/client/index.js';
import { checkedFetch } from './checked-fetch.js';
import { startTestServer, TEST_API_KEY, type TestServer } from './test-server.js';

/** The PetStoreError `promise` rejects with; anything else fails the test. */
export async function failure(promise: Promise<unknown>): Promise<PetStoreError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PetStoreError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** A fresh service and a client of it (no retries) for each test of the suite; `.client` and `.url` are the current ones. */
export function clientEachTest(): { readonly client: PetStoreClient; readonly url: string } {
  let server: TestServer | undefined;
  const current = { client: undefined as unknown as PetStoreClient, url: '' };
  beforeEach(async () => {
    server = await startTestServer({ kind: 'memory' });
    current.url = server.url;
    current.client = new PetStoreClient({ baseUrl: `${server.url}/v1`, apiKey: TEST_API_KEY, fetch: checkedFetch, retry: { attempts: 1 } });
  });
  afterEach(() => server?.close());
  return current;
}
