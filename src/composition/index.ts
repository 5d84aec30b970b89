// What the processes (the commands) take from the composition root: the container, its tokens,
// and factories for the few things a process makes itself (its logger, the URL it announces).
// A command imports this, the configuration and the domain, never an adapter; nothing here is an
// adapter's own symbol.
export { closeContainer, createContainer, generatedApiKey, type StartHttpServer } from './container.js';
export { containerOptionsFrom } from './container-options.js';
export { type SchemaVersion } from './port-bindings.js';
export { type StartEventRelay } from './event-bindings.js';
export { TOKENS } from './tokens.js';
export { announcedApiUrl, createProcessLogger } from './process-parts.js';
