// The domain in one import: resources, rules, failures, ports and use cases.
export * from './pet.js';
export * from './page.js';
export * from './idempotency.js';
export * from './errors.js';
export * from './api-key.js';
export * from './ports.js';
export * from './readiness.js';
export * from './storage-unavailable-error.js';
export * from './validation.js';
export * from './use-cases/list-pets.js';
export * from './use-cases/get-pet.js';
export * from './use-cases/create-pet.js';
export * from './use-cases/create-pet-once.js';
export * from './use-cases/api-key-admin.js';
export * from './rate-limit.js';
export * from './store-archive.js';
