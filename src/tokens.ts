// The inversify service identifiers: one Symbol per port, use case and service of the composition root.
/** The inversify service identifiers of {@link createContainer}'s bindings: resolve one, or rebind it before the first resolution (a port is replaced more simply with `adapters`). */
export const TOKENS = {
  Logger: Symbol.for('petstore.Logger'),
  SqliteDatabase: Symbol.for('petstore.SqliteDatabase'),
  Clock: Symbol.for('petstore.Clock'),
  PostgresPool: Symbol.for('petstore.PostgresPool'),
  PetRepository: Symbol.for('petstore.PetRepository'),
  IdempotencyStore: Symbol.for('petstore.IdempotencyStore'),
  ApiKeyStore: Symbol.for('petstore.ApiKeyStore'),
  GeneratedApiKey: Symbol.for('petstore.GeneratedApiKey'),
  StaticApiKeys: Symbol.for('petstore.StaticApiKeys'),
  ApiKeyVerifier: Symbol.for('petstore.ApiKeyVerifier'),
  ApiKeyAdmin: Symbol.for('petstore.ApiKeyAdmin'),
  ListPets: Symbol.for('petstore.ListPets'),
  CreatePet: Symbol.for('petstore.CreatePet'),
  CreatePetOnce: Symbol.for('petstore.CreatePetOnce'),
  GetPet: Symbol.for('petstore.GetPet'),
  ServiceState: Symbol.for('petstore.ServiceState'),
  ReadinessCheck: Symbol.for('petstore.ReadinessCheck'),
  HttpAppOptions: Symbol.for('petstore.HttpAppOptions'),
  HttpRouter: Symbol.for('petstore.HttpRouter'),
  HttpApp: Symbol.for('petstore.HttpApp'),
} as const;
