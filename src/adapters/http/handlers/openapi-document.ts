// The OpenAPI document of the service: docs/openapi.yaml, written by hand, is the source;
// it is served as JSON at /v1/openapi.json with a server URL relative to where it is served,
// so "try it" in the API reference calls the server that served the document.
import { load } from 'js-yaml';
import { readPackageFile } from './package-files.js';

export const OPENAPI_SOURCE = 'docs/openapi.yaml';

/**
 * The document as js-yaml reads it. Its text holds only Latin-1 characters (a test keeps it so):
 * its keys become the process's interned strings for names such as `requestId` and `status`,
 * and a key cut from text with a wider character is a two-byte string, which made every log
 * line two-byte and slower to measure and write.
 */
export function loadOpenApiDocument(): Record<string, unknown> {
  return load(readPackageFile(OPENAPI_SOURCE)) as Record<string, unknown>;
}

/**
 * The document as served: identical but for three things. `servers` point at this very server
 * (behind any mount prefix): the API at `apiBasePath`, and the paths with servers of their own
 * (/healthz, /docs...) at `rootPath`. The paths marked `x-internal: true` (the API reference
 * page's own files, not part of the API) are left out. And the links of `info.description`
 * to the service's own pages (`](/docs/...)`) start at `rootPath`.
 */
export function servedOpenApiDocument(document: Record<string, unknown>, apiBasePath: string, rootPath = '/'): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.entries(document['paths'] as Record<string, Record<string, unknown>>)
      .filter(([, item]) => item['x-internal'] !== true)
      .map(([path, item]) => [
        path,
        item['servers'] === undefined ? item : { ...item, servers: [{ url: rootPath, description: 'this server' }] },
      ]),
  );
  const info = document['info'] as Record<string, unknown>;
  const description = typeof info['description'] === 'string' ? info['description'].replaceAll('](/', `](${rootPath}`) : '';
  return { ...document, info: { ...info, description }, paths, servers: [{ url: apiBasePath, description: 'this server' }] };
}
