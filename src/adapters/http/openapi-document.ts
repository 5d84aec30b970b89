// The OpenAPI document of the service: docs/openapi.yaml, written by hand, is the source;
// it is served as JSON at /v1/openapi.json with a server URL relative to where it is served,
// so "try it" in the API reference calls the server that served the document.
import { load } from 'js-yaml';
import { readPackageFile } from './package-files.js';

export const OPENAPI_SOURCE = 'docs/openapi.yaml';

export function loadOpenApiDocument(): Record<string, unknown> {
  return load(readPackageFile(OPENAPI_SOURCE)) as Record<string, unknown>;
}

/**
 * The document as served: identical but for `servers`, which points at this very server
 * (its API base path, behind any mount prefix).
 */
export function servedOpenApiDocument(document: Record<string, unknown>, apiBasePath: string): Record<string, unknown> {
  return { ...document, servers: [{ url: apiBasePath, description: 'this server' }] };
}
