// GET /docs: an interactive API reference (Swagger UI, served from the swagger-ui-dist
// package itself, no CDN) of /v1/openapi.json, where a user can enter a key and try each
// operation. Also the Markdown pages the API links to: /docs/errors, /docs/deprecations and
// /docs/api-conventions, and the OpenAPI document itself. None of them needs a key: a client
// learns the interface before it has one.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import { loadOpenApiDocument, servedOpenApiDocument } from './openapi-document.js';
import { readPackageFile } from './package-files.js';
import { mountPrefix } from '../request/request-path.js';
import { sendJson } from '../response/send-json.js';

export const API_REFERENCE_PATH = '/docs';
/** Where docs/api-conventions.md is served: what holds for every path, linked from the document's info. */
export const API_CONVENTIONS_PATH = `${API_REFERENCE_PATH}/api-conventions`;

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

/** The handlers of /docs, its assets and pages, and of the OpenAPI document. Each is bound, to be given to a route as it is. */
export class ApiReferenceHandlers {
  // Located, not imported: the package's main module would load the whole 1.5 MB UI bundle into the server.
  private readonly assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  private readonly errorsPage = readPackageFile('docs/errors.md');
  private readonly deprecationsPage = readPackageFile('docs/deprecations.md');
  private readonly conventionsPage = readPackageFile('docs/api-conventions.md');
  private readonly openApiDocument = loadOpenApiDocument();

  /** `apiBasePath` is where the operations are served (`/v1`), `openApiPath` where the document is. */
  constructor(
    private readonly apiBasePath: string,
    private readonly openApiPath: string,
  ) {}

  /** GET /docs: the Swagger UI page. */
  readonly page: RouterMiddleware = (ctx) => {
    ctx.response.type = 'text/html; charset=utf-8';
    ctx.response.body = page(this.openApiPath, escapeHtml(mountPrefix(ctx)));
  };

  /** GET /docs/init.js: the page's script. */
  readonly initScript: RouterMiddleware = (ctx) => {
    ctx.response.type = 'text/javascript; charset=utf-8';
    ctx.response.body = INIT_SCRIPT;
  };

  /** GET /docs/assets/:file: one of the few files of swagger-ui-dist the page loads; any other name is a 404. */
  readonly asset: RouterMiddleware = (ctx) => {
    const file = ctx.params['file']!;
    // Own names only: `constructor` and the like are names of every object.
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined) return; // falls through to the 404 Error body
    ctx.response.type = type;
    ctx.response.set('Cache-Control', 'public, max-age=86400');
    ctx.response.body = createReadStream(join(this.assetsDir, file));
  };

  /** GET /docs/errors: what each error code means (docs/errors.md). */
  readonly errors: RouterMiddleware = (ctx) => markdown(ctx, this.errorsPage);

  /** GET /docs/deprecations: the migration notes (docs/deprecations.md). */
  readonly deprecations: RouterMiddleware = (ctx) => markdown(ctx, this.deprecationsPage);

  /** GET /docs/api-conventions: what holds for every path (docs/api-conventions.md). */
  readonly conventions: RouterMiddleware = (ctx) => markdown(ctx, this.conventionsPage);

  /** GET /v1/openapi.json: the OpenAPI document, with servers that point at this very server. */
  readonly openApi: RouterMiddleware = (ctx) => {
    const prefix = mountPrefix(ctx);
    sendJson(ctx, 200, servedOpenApiDocument(this.openApiDocument, `${prefix}${this.apiBasePath}`, `${prefix}/`));
  };
}

function markdown(ctx: Context, text: string): void {
  ctx.response.type = 'text/markdown; charset=utf-8';
  ctx.response.body = text;
}
