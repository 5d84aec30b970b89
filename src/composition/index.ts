// What the processes (the commands) take from the composition root: the container and the few
// adapter facts a process states itself (where it logs, the base path it announces). A command
// imports this and the configuration, never an adapter.
export { closeContainer, createContainer, generatedApiKey, type StartHttpServer } from './container.js';
export { containerOptionsFrom } from './container-options.js';
export { type SchemaVersion } from './port-bindings.js';
export { type StartEventRelay } from './event-bindings.js';
export { TOKENS } from './tokens.js';
export { createLogger } from '../adapters/logging/pino-logger.js';
export { describeFault } from '../adapters/shared/describe-fault.js';
export { API_BASE_PATH } from '../adapters/http/create-http-app.js';
export { serverUrl, type RunningHttpServer } from '../adapters/http/http-server.js';
