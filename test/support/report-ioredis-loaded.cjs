// Preloaded into a server process (NODE_OPTIONS=--require …): on exit, writes to standard error
// whether ioredis was loaded. ioredis is a CommonJS package, so an ES module import of it lands
// in the CommonJS module cache too.
'use strict';
const Module = require('node:module');

process.on('exit', () => {
  const loaded = Object.keys(Module._cache).some((file) => file.includes('/node_modules/ioredis/'));
  process.stderr.write(`ioredis loaded: ${loaded}\n`);
});
