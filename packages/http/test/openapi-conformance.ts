// Checks HTTP responses against the OpenAPI document: the operation exists, the status is
// documented for it, the documented headers are there and well-formed, and the body
// matches the schema of its status and media type (ajv, JSON Schema 2020-12).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../src/openapi/build-openapi-document.js';
import { buildOpenApiDocument } from '../src/routes/all-routes.js';

type AddFormats = typeof addFormatsModule.default;
const addFormats: AddFormats =
  addFormatsModule.default ?? (addFormatsModule as unknown as AddFormats);

/** A response as read by a test: its body already taken as text. */
export interface CapturedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly bodyText: string;
}

/** The operation a request resolved to, for coverage bookkeeping. */
export interface ResolvedOperation {
  readonly operationId: string;
  readonly path: string;
  readonly method: string;
}

type Json = Record<string, unknown>;
interface HeaderSpec {
  readonly required?: boolean;
  readonly schema?: Json;
}
interface ResponseSpec {
  readonly headers?: Record<string, HeaderSpec | { $ref: string }>;
  readonly content?: Record<string, { schema?: Json }>;
}
interface OperationSpec {
  readonly operationId: string;
  readonly responses: Record<string, ResponseSpec | { $ref: string }>;
}

const SCHEMAS_ID = 'urn:programrun:openapi:schemas';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Checker {
  readonly document: OpenApiDocument;
  readonly ajv: Ajv2020;
  readonly validators: Map<string, ValidateFunction>;
  readonly templates: readonly { path: string; pattern: RegExp; params: number }[];
}
let checker: Checker | undefined;

function createChecker(): Checker {
  // The document's `#/components/schemas/X` refs become refs into one schema holding them
  // all under $defs, so every response schema compiles on its own.
  const text = JSON.stringify(buildOpenApiDocument()).replaceAll(
    '"#/components/schemas/',
    `"${SCHEMAS_ID}#/$defs/`,
  );
  const document = JSON.parse(text) as OpenApiDocument;
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: document.components?.schemas ?? {} });
  const templates = Object.keys(document.paths ?? {}).map((path) => ({
    path,
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
    params: (path.match(/\{/g) ?? []).length,
  }));
  return { document, ajv, validators: new Map(), templates };
}

function resolve<T>(document: OpenApiDocument, value: T | { $ref: string }): T {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value;
  let target: unknown = document;
  for (const part of value.$ref.replace(/^#\//, '').split('/')) {
    target = (target as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target as T;
}

function validator(state: Checker, key: string, schema: Json): ValidateFunction {
  let validate = state.validators.get(key);
  if (!validate) {
    validate = state.ajv.compile(schema);
    state.validators.set(key, validate);
  }
  return validate;
}

const errorsOf = (validate: ValidateFunction): string =>
  (validate.errors ?? [])
    .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
    .join('; ');

/** `application/json; charset=utf-8` matches `application/json`; documented parameters must match. */
function mediaTypeMatches(documented: string, actual: string): boolean {
  const split = (value: string) => {
    const [essence, ...parameters] = value.toLowerCase().split(';');
    return {
      essence: essence!.trim(),
      parameters: new Set(parameters.map((parameter) => parameter.replace(/\s+/g, ''))),
    };
  };
  const want = split(documented);
  const got = split(actual);
  return (
    want.essence === got.essence &&
    [...want.parameters].every((parameter) => got.parameters.has(parameter))
  );
}

function pathOf(url: string): string {
  const { pathname } = new URL(url, 'http://localhost');
  return pathname.replace(/\/+$/, '') || '/';
}

function matchingTemplates(state: Checker, path: string) {
  return state.templates
    .filter((template) => template.pattern.test(path))
    .sort((a, b) => a.params - b.params);
}

/**
 * The documented operation for a method and URL, or undefined when none.
 *
 * @example
 * ```ts
 * findOperation('GET', '/v1/program-runs/prun_1')?.operationId; // 'getProgramRun'
 * ```
 */
export function findOperation(method: string, url: string): ResolvedOperation | undefined {
  const state = (checker ??= createChecker());
  for (const template of matchingTemplates(state, pathOf(url))) {
    const item = state.document.paths?.[template.path] as Record<string, unknown> | undefined;
    const operation = item?.[method.toLowerCase()] as OperationSpec | undefined;
    if (operation) {
      return { operationId: operation.operationId, path: template.path, method };
    }
  }
  return undefined;
}

function checkProblemOutsideOperations(
  state: Checker,
  method: string,
  path: string,
  response: CapturedResponse,
  body: unknown,
): string[] {
  const problems: string[] = [];
  const templates = matchingTemplates(state, path);
  const expected = templates.length === 0 ? 404 : 405;
  const code = templates.length === 0 ? 'route_not_found' : 'method_not_allowed';
  if (response.status !== expected) {
    return [
      templates.length === 0
        ? `no documented path matches ${path}, yet the answer was ${response.status} (expected 404 route_not_found)`
        : `${method} is not documented on ${templates[0]!.path}, yet the answer was ${response.status} (expected 405)`,
    ];
  }
  const validate = validator(state, 'Problem', { $ref: `${SCHEMAS_ID}#/$defs/Problem` });
  if (!validate(body)) problems.push(`the problem document is invalid: ${errorsOf(validate)}`);
  if ((body as Json | null)?.code !== code) problems.push(`the problem code is not ${code}`);
  if (expected === 405) {
    const documented = new Set(
      templates.flatMap((template) =>
        Object.keys(state.document.paths?.[template.path] ?? {})
          .filter((key) => METHODS.includes(key))
          .map((key) => key.toUpperCase()),
      ),
    );
    const allowed = new Set(
      (response.headers.get('allow') ?? '').split(',').map((value) => value.trim()),
    );
    if ([...documented].sort().join(',') !== [...allowed].sort().join(',')) {
      problems.push(
        `Allow is "${response.headers.get('allow')}", the document has ${[...documented].join(', ')}`,
      );
    }
  }
  return problems;
}

function checkHeaders(state: Checker, key: string, spec: ResponseSpec, headers: Headers): string[] {
  const problems: string[] = [];
  for (const [name, reference] of Object.entries(spec.headers ?? {})) {
    const header = resolve<HeaderSpec>(state.document, reference);
    const value = headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`the required header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const validate = validator(state, `${key} header ${name}`, header.schema);
    const shown = value; // validate() narrows `value` itself to never when it fails
    if (!validate(value)) problems.push(`header ${name}: "${shown}" ${errorsOf(validate)}`);
  }
  return problems;
}

function checkBody(
  state: Checker,
  key: string,
  spec: ResponseSpec,
  response: CapturedResponse,
  body: unknown,
): string[] {
  const content = spec.content ?? {};
  const contentType = response.headers.get('content-type');
  if (Object.keys(content).length === 0) {
    return response.bodyText === '' ? [] : ['a body was sent where none is documented'];
  }
  const mediaType = Object.keys(content).find(
    (documented) => contentType !== null && mediaTypeMatches(documented, contentType),
  );
  if (!mediaType) {
    return [
      `Content-Type "${contentType ?? '(none)'}" is not one of ${Object.keys(content).join(', ')}`,
    ];
  }
  // A JSON media type (`application/json`, `…+json`) has a JSON body; any other (SVG, an
  // event stream) is text, checked as a string against its schema.
  const json = /[/+]json$/.test(mediaType.split(';')[0]!.trim());
  if (json && body === undefined) return ['the body is not JSON'];
  const schema = content[mediaType]?.schema;
  if (!schema) return [];
  const validate = validator(state, `${key} ${mediaType}`, schema);
  const problems = validate(json ? body : response.bodyText)
    ? []
    : [`the body does not match: ${errorsOf(validate)}`];
  if (mediaTypeMatches('application/problem+json', mediaType)) {
    // A replay carries the stored problem, produced by the original request.
    const expected =
      response.headers.get('idempotent-replayed') === 'true'
        ? response.headers.get('original-request-id')
        : response.headers.get('request-id');
    const requestId = (body as Json | null)?.request_id;
    if (requestId !== expected) {
      problems.push(`request_id ${String(requestId)} is not the request's id ${String(expected)}`);
    }
  }
  return problems;
}

/**
 * Checks one response against the OpenAPI document. Empty means it conforms; each string
 * names one deviation. Paths outside the document must answer `404 route_not_found`, and
 * undocumented methods on a documented path `405 method_not_allowed` with the documented
 * methods in `Allow`.
 *
 * @example
 * ```ts
 * const response = await fetch(`${base}/v1/scenarios`, { headers });
 * const bodyText = await response.text();
 * expect(checkResponseAgainstOpenApi('GET', '/v1/scenarios', { status: response.status, headers: response.headers, bodyText })).toEqual([]);
 * ```
 */
export function checkResponseAgainstOpenApi(
  method: string,
  url: string,
  response: CapturedResponse,
): string[] {
  const state = (checker ??= createChecker());
  const path = pathOf(url);
  let body: unknown;
  try {
    body = response.bodyText === '' ? undefined : JSON.parse(response.bodyText);
  } catch {
    body = undefined;
  }
  const operation = findOperation(method, url);
  const problems: string[] = [];
  if (response.headers.get('request-id') === null) problems.push('Request-Id is missing');
  if (!operation) {
    problems.push(...checkProblemOutsideOperations(state, method, path, response, body));
  } else {
    const item = state.document.paths?.[operation.path] as Record<string, OperationSpec>;
    const responses = item[method.toLowerCase()]!.responses;
    const documented =
      responses[String(response.status)] ??
      responses[`${String(response.status)[0]}XX`] ??
      responses.default;
    if (!documented) {
      problems.push(
        `status ${response.status} is not documented for ${operation.operationId} (documented: ${Object.keys(responses).join(', ')})`,
      );
    } else {
      const spec = resolve<ResponseSpec>(state.document, documented);
      const key = `${operation.operationId} ${response.status}`;
      problems.push(...checkHeaders(state, key, spec, response.headers));
      problems.push(...checkBody(state, key, spec, response, body));
    }
  }
  return problems.map((problem) => `${method} ${path} → ${response.status}: ${problem}`);
}
