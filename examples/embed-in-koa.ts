// Embedding: the pet store's HTTP adapter mounted under /petstore in an existing Koa app,
// next to the app's own routes, called with the typed client. Run: node --import tsx examples/embed-in-koa.ts
import Koa from 'koa';
import mount from 'koa-mount';
import { ApiKeyLabel, createPetStore, PetStoreClient, startHttpServer } from 'petstore-hexagon';

// The service, on the memory adapters (use a SQLite path or a postgres:// URL to keep data).
const petStore = await createPetStore({ db: 'memory' });

// An API key stored in the service's database; the key itself is shown only here, once.
const label = ApiKeyLabel.decode('embedding example');
if (label._tag === 'Left') throw new Error('invalid label');
const { key, record } = await petStore.apiKeys.create(label.right);
console.log(`API key ${record.id} created for caller ${record.callerId}`);

// Your own Koa app: its routes, and the pet store under a prefix. Mount it before any body
// parser of yours: the service reads its own request bodies, with its own limits.
const app = new Koa();
app.use(async (ctx, next) => {
  if (ctx.path === '/') ctx.body = { service: 'my shop', petStore: '/petstore/v1' };
  else await next();
});
app.use(mount('/petstore', petStore.app));
const server = await startHttpServer(app.callback(), { host: '127.0.0.1', port: 0 });

try {
  // The links the service sends (Location, Link rel="next", deprecation) keep the /petstore prefix.
  const client = new PetStoreClient({ baseUrl: `${server.url}/petstore/v1`, apiKey: key });
  for (const name of ['Rex', 'Tom', 'Kitty']) await client.createPet({ name, categoryId: 1 });
  const names: string[] = [];
  for await (const pet of client.allPets({ limit: 2 })) names.push(pet.name);
  console.log(`pets under /petstore: ${names.join(', ')}`);
  console.log(`my own route: ${JSON.stringify(await (await fetch(`${server.url}/`)).json())}`);
} finally {
  await server.close();
  await petStore.close();
}
