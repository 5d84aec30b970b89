// Preloaded into a server process (NODE_OPTIONS=--import …): registers a resolve hook that
// appends to the file named by OPENTELEMETRY_LOAD_REPORT every module of an @opentelemetry/*
// package the process resolves, whether by import or through an ES module's require.
import { register } from 'node:module';

register('./opentelemetry-load-hook.mjs', import.meta.url);
