// GET /docs: an interactive API reference (Swagger UI, served from the swagger-ui-dist
// package itself, no CDN) of /v1/openapi.json, where a user can enter a key and try each
// operation. Also the Markdown pages the API links to: /docs/errors and /docs/deprecations.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DEPRECATIONS_PATH } from './deprecation.js';
import { readPackageFile } from './package-files.js';
import { mountPrefix } from './request-path.js';
import { getRoute, type Route, routeParams } from './route-table.js';
import { ERRORS_DOC_PATH } from './send-error.js';

export const API_REFERENCE_PATH = '/docs';

// The only files of swagger-ui-dist that the page loads; nothing else of the package is served.
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// `prefix` is where the app is mounted ('' at the root): the page's links must include it.
const page = (openApiUrl: string, prefix: string): string => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Pet store API reference</title>
  <link rel="stylesheet" href="${prefix}${API_REFERENCE_PATH}/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${prefix}${API_REFERENCE_PATH}/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui" data-openapi-url="${prefix}${openApiUrl}"></div>
  <script src="${prefix}${API_REFERENCE_PATH}/assets/swagger-ui-bundle.js"></script>
  <script src="${prefix}${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

// In a file of its own rather than inline, so that a strict Content-Security-Policy can allow it.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.openapiUrl,
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
});
`;

// The prefix comes from the request line: it goes into HTML attributes only escaped.
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function apiReferenceRoutes(openApiUrl: string): Route[] {
  // Located, not imported: the package's main module would load the whole 1.5 MB UI bundle into the server.
  const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const markdown = { errors: readPackageFile('docs/errors.md'), deprecations: readPackageFile('docs/deprecations.md') };
  const markdownPage = (path: string, text: string): Route =>
    getRoute(path, (ctx) => {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = text;
    });

  return [
    getRoute(API_REFERENCE_PATH, (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page(openApiUrl, escapeHtml(mountPrefix(ctx)));
    }),
    getRoute(`${API_REFERENCE_PATH}/init.js`, (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT_SCRIPT;
    }),
    getRoute(`${API_REFERENCE_PATH}/assets/:file`, (ctx) => {
      const file = routeParams(ctx)['file']!;
      const type = ASSETS[file];
      if (type === undefined) return; // falls through to the 404 Error body
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = createReadStream(join(assetsDir, file));
    }),
    markdownPage(ERRORS_DOC_PATH, markdown.errors),
    markdownPage(DEPRECATIONS_PATH, markdown.deprecations),
  ];
}
