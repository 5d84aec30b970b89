// The ports: what the domain needs from the outside world, as interfaces only.
// Every port is asynchronous so that in-process (memory, SQLite) and network (PostgreSQL)
// adapters fit the same shape. A rejected promise means the adapter could not do its job
// (an infrastructure fault); it is never used for an expected outcome such as "not found".
import type { Option } from 'fp-ts/lib/Option.js';
import type { Limit } from './page.js';
import type { Pet, PetDraft, PetId, PetStatus } from './pet.js';

export interface PetListQuery {
  readonly limit: Limit;
  /** Only pets with this status; all pets when absent. */
  readonly status?: PetStatus;
}

export interface PetRepository {
  /** Stores a pet and returns it with its new id; ids only ever increase. */
  create(draft: PetDraft): Promise<Pet>;
  findById(id: PetId): Promise<Option<Pet>>;
  /** At most `limit` pets, in ascending id order. */
  list(query: PetListQuery): Promise<readonly Pet[]>;
}

/** Who is calling: the identity behind a valid API key, safe to log (it is never the key). */
export interface Caller {
  readonly id: string;
}

export interface ApiKeyVerifier {
  /** The caller the key belongs to, or none when the key is unknown. */
  verify(apiKey: string): Promise<Option<Caller>>;
}
