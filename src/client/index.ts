// The typed client, importable on its own as `petstore-hexagon/client`: it loads nothing of
// the server (no Koa, no database driver) and needs nothing but fetch.
export { PetStoreClient, type PetStoreClientOptions, type CreatePetOptions } from './pet-store-client.js';
export type { BearerProvider } from './bearer.js';
export { PetStoreError, InsufficientScopeError, type PetStoreErrorDetail, CLIENT_ERROR_CODES } from './pet-store-error.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export { CategoriesClient } from './categories-client.js';
export type {
  CallOptions,
  Category,
  CategoryPage,
  CategoryWithETag,
  ChangePetOptions,
  ListCategoriesParams,
  ListPetsParams,
  NewPet,
  Pet,
  PetPage,
  PetPatch,
  PetStatus,
  PetWithETag,
} from './types.js';
export type {
  ChangeOrderOptions,
  Inventory,
  ListOrdersParams,
  NewOrder,
  Order,
  OrderPage,
  OrderStatus,
  OrderWithETag,
  PlaceOrderOptions,
} from './order-types.js';
