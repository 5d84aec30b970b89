// The @koa/router every route of the app is declared on (http-routes.ts), with the options
// the service needs. Integrators get it (`petStore.router`) to add routes beside the service's.
import { METHODS } from 'node:http';
import Router from '@koa/router';

/**
 * A router as the service uses it: case-sensitive paths (`/V1/pets` is not `/v1/pets`), one
 * optional trailing slash, and every method Node's HTTP parser accepts known to it. With its
 * default list (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS), `allowedMethods()` would answer
 * any other method (PROPFIND, TRACE…) `501 Not Implemented`, a server error, where the client
 * is the one that must change: known to the router, such a method on a known path is a `405`
 * with `Allow`, and on an unknown path a `404`.
 */
export const createHttpRouter = (): Router => new Router({ sensitive: true, methods: [...METHODS] });
