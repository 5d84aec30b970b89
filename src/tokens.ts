// The inversify service identifiers: one Symbol per port, use case and service of the composition root.
export const TOKENS = {
  Config: Symbol.for('petstore.Config'),
  Logger: Symbol.for('petstore.Logger'),
  SqliteDatabase: Symbol.for('petstore.SqliteDatabase'),
  PostgresPool: Symbol.for('petstore.PostgresPool'),
  PetRepository: Symbol.for('petstore.PetRepository'),
  ApiKeyVerifier: Symbol.for('petstore.ApiKeyVerifier'),
  ListPets: Symbol.for('petstore.ListPets'),
  CreatePet: Symbol.for('petstore.CreatePet'),
  GetPet: Symbol.for('petstore.GetPet'),
  HttpApp: Symbol.for('petstore.HttpApp'),
} as const;
