// The ports: what the domain needs from the outside world, as interfaces only, one file per concern.
// Every port is asynchronous so that in-process (memory, SQLite) and network (PostgreSQL)
// adapters fit the same shape. A rejected promise means the adapter could not do its job
// (an infrastructure fault); it is never used for an expected outcome such as "not found".
export * from './pet-repository.js';
export * from './category-repository.js';
export * from './idempotency-store.js';
export * from './credential-verifier.js';
export * from './api-key-store.js';
export * from './clock.js';
export * from './readiness-check.js';
export * from './rate-limit-store.js';
export * from './backlog.js';
export * from './event-outbox.js';
export * from './event-transport.js';
export * from './webhook-store.js';
export * from './store-archive.js';
export * from './order-repository.js';
export * from './pet-inventory.js';
