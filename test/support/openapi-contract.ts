// Every response the HTTP tests receive is checked against the project's own OpenAPI
// document (docs/openapi.yaml) with openapi-backend: its status must be documented for the
// operation, its body must match the documented schema, and its headers too. So the
// document cannot drift from the code without a test failing.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { load } from 'js-yaml';
import { OpenAPIBackend } from 'openapi-backend';

type Document = {
  paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
  components: { schemas: Record<string, unknown> };
};

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly operationId: string;
  readonly responses: Record<string, DocumentedResponse>;
}

export interface CheckedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: unknown;
}

const API_PREFIX = '/v1';
const document = load(readFileSync('docs/openapi.yaml', 'utf8')) as Document;

// Paths with servers of their own (/healthz, /docs…) live at the root; the others under /v1.
const routes: Route[] = Object.entries(document.paths).flatMap(([path, item]) => {
  const prefix = item.servers === undefined ? API_PREFIX : new URL(item.servers[0]!.url).pathname.replace(/\/$/, '');
  const pattern = new RegExp(`^${prefix}${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
  return Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => ({
      method: method.toUpperCase(),
      pattern,
      operationId: (operation as { operationId: string }).operationId,
      responses: (operation as { responses: Route['responses'] }).responses,
    }));
});

/** RFC 3339's date-time (format: date-time), which openapi-backend's Ajv would otherwise skip, with a warning each. */
const DATE_TIME = (text: string): boolean =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(text) && !Number.isNaN(Date.parse(text));

let backend: Promise<OpenAPIBackend> | undefined;
const api = (): Promise<OpenAPIBackend> =>
  (backend ??= (async () => {
    // quick: skip openapi-backend's own check of the document, which knows only OpenAPI 3.0;
    // test/docs checks the document against the OpenAPI 3.1 schema instead.
    const instance = new OpenAPIBackend({
      definition: structuredClone(document) as never,
      quick: true,
      validate: true,
      strict: false,
      customizeAjv: (ajv) => ajv.addFormat('date-time', DATE_TIME),
    });
    await instance.init();
    return instance;
  })());

// Answers outside any documented operation (unknown paths, other methods) are Error bodies.
// OpenAPI's integer formats are not JSON Schema's: Ajv would skip them, with a warning each.
const INT32 = { type: 'number', validate: (n: number) => n >= -(2 ** 31) && n < 2 ** 31 } as const;
const INT64 = { type: 'number', validate: (n: number) => Number.isInteger(n) } as const;
const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { int32: INT32, int64: INT64 } });
ajv.addSchema({ $id: 'doc', components: document.components });
const validateError = ajv.compile({ $ref: 'doc#/components/schemas/Error' });
const validateProblem = ajv.compile({ $ref: 'doc#/components/schemas/Problem' });

interface DocumentedHeader {
  readonly $ref?: string;
  readonly required?: boolean;
}
interface DocumentedResponse {
  readonly $ref?: string;
  readonly content?: Record<string, unknown>;
  readonly headers?: Record<string, DocumentedHeader>;
}
const components = document.components as unknown as {
  responses: Record<string, DocumentedResponse>;
  headers: Record<string, DocumentedHeader>;
};

/** A response object, with a `$ref` to components.responses followed. */
const resolve = (response: DocumentedResponse | undefined): DocumentedResponse | undefined =>
  response?.$ref === undefined ? response : components.responses[response.$ref.replace('#/components/responses/', '')];

const resolveHeader = (header: DocumentedHeader): DocumentedHeader =>
  header.$ref === undefined ? header : components.headers[header.$ref.replace('#/components/headers/', '')]!;

const mediaType = (res: CheckedResponse): string =>
  String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();

/** Throws, naming every difference, when `res` is not what docs/openapi.yaml says `method url` answers. */
export async function assertDocumented(method: string, url: string, res: CheckedResponse): Promise<void> {
  const path = new URL(url).pathname;
  const lookup = method === 'HEAD' ? 'GET' : method;
  const route = routes.find((r) => r.method === lookup && r.pattern.test(path));
  const where = `${method} ${path} → ${res.status}`;
  const type = mediaType(res);
  if (type === 'application/problem+json') {
    if (!validateProblem(res.json)) throw new Error(`${where}: not a documented Problem: ${ajv.errorsText(validateProblem.errors)}`);
    return;
  }
  if (route === undefined) {
    // OPTIONS is answered 200 with Allow and no body on every documented path (see
    // docs/api-conventions.md). A CORS preflight is answered 204 with the Access-Control-* headers instead.
    if (method === 'OPTIONS' && res.status === 200 && res.headers['allow'] !== undefined && res.headers['content-length'] === '0') return;
    if (method === 'OPTIONS' && res.status === 204 && res.headers['access-control-allow-methods'] !== undefined) return;
    if (res.status < 400) throw new Error(`${where}: no documented operation answers this`);
    if (method !== 'HEAD' && !validateError(res.json))
      throw new Error(`${where}: not an Error body: ${ajv.errorsText(validateError.errors)}`);
    return;
  }
  const declared = route.responses[String(res.status)] ?? route.responses['default'];
  const documented = resolve(declared);
  if (documented === undefined) throw new Error(`${where}: status ${res.status} is not documented for ${route.operationId}`);
  // 204 and 304 have no body (a 304's headers are those of the 200 it stands for).
  if (res.status === 204 || res.status === 304 || method === 'HEAD') return;
  await checkBodyAndHeaders(method, route, documented, res, where);
}

async function checkBodyAndHeaders(
  method: string,
  route: Route,
  documented: DocumentedResponse,
  res: CheckedResponse,
  where: string,
): Promise<void> {
  const type = mediaType(res);
  const types = Object.keys(documented.content ?? {});
  if (!types.includes(type)) throw new Error(`${where}: Content-Type ${type} is not documented (${types.join(', ') || 'no body'})`);
  if (type !== 'application/json') return;
  const validator = await api();
  const body = validator.validateResponse(res.json, route.operationId, res.status);
  if (body.errors?.length) throw new Error(`${where}: body differs from the document: ${JSON.stringify(body.errors)}`);
  // openapi-backend checks the values of the headers present; which must be present is checked here.
  const headers = validator.validateResponseHeaders(res.headers, route.operationId, { statusCode: res.status });
  if (headers.errors?.length) throw new Error(`${where}: headers differ from the document: ${JSON.stringify(headers.errors)}`);
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    if (resolveHeader(header).required === true && res.headers[name.toLowerCase()] === undefined) {
      throw new Error(`${where}: the documented header ${name} is missing`);
    }
  }
}
