// The use cases without HTTP, on the memory adapter: decode untrusted input with the domain's
// codecs, call a use case, and handle its answer (an fp-ts Either). Run: node --import tsx examples/use-cases-directly.ts
import * as E from 'fp-ts/lib/Either.js';
import {
  createPet,
  describeFailures,
  getPet,
  listPets,
  MemoryPetRepository,
  NewPet,
  type PetId,
  PAGE_LIMIT,
  type Limit,
} from 'petstore-hexagon';

const pets = new MemoryPetRepository();
const add = createPet(pets);

// Untrusted input is decoded first: every problem is reported at once, with its field.
for (const input of [
  { name: 'Rex', categoryId: 1 },
  { name: 'Tom', categoryId: 2, status: 'sold' },
  { name: '', categoryId: 'x' },
]) {
  const decoded = NewPet.decode(input);
  if (E.isLeft(decoded)) {
    const problems = describeFailures(decoded.left).map((p) => `${p.pointer} ${p.message}`);
    console.log(`refused ${JSON.stringify(input)}: ${problems.join('; ')}`);
    continue;
  }
  const created = await add(decoded.right)(); // a TaskEither: call it to run it
  if (E.isRight(created)) console.log(`created #${created.right.id} ${created.right.name} (${created.right.status})`);
}

// A page of the list: at most `limit` pets, and whether more follow.
const page = await listPets(pets)({ limit: PAGE_LIMIT.max as Limit, status: 'available' })();
if (E.isRight(page)) console.log(`available: ${page.right.pets.map((p) => p.name).join(', ')}; more: ${page.right.hasMore}`);

// A failure of the domain is a value, not an exception.
const missing = await getPet(pets)(42 as PetId)();
if (E.isLeft(missing)) console.log(`pet 42: ${missing.left.code}`);
