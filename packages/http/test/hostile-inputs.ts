// Hostile values in every string and number position of every route: path parameters,
// query parameters and body fields, found from the route list and the OpenAPI document.
// Shared by the memory-store suite here and the PGlite / PostgreSQL suites of
// @programrun/store-postgres, so every store is held to the same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildOpenApiDocument,
  ERROR_CATALOGUE,
  PROBLEM_TYPE_BASE,
  type Handler,
} from '../src/index.js';
import { ROUTES } from '../src/routes/all-routes.js';

/** A handler over a fresh store whose `key` (a test key) authenticates requests. */
export interface HostileInputTarget {
  readonly handler: Handler;
  readonly key: string;
  close(): Promise<void>;
}

/** How much of the value space a suite covers. */
export interface HostileInputOptions {
  /** Random multi-position requests per route (fast-check). */
  readonly randomRunsPerRoute: number;
}

/** Where a value goes: a path or query parameter, or a body field by JSON pointer. */
interface Position {
  readonly location: 'path' | 'query' | 'body';
  /** The parameter's name, or the body field's JSON pointer. */
  readonly name: string;
  /** What the parameter is, for query parameters: free text, an integer or an enum. */
  readonly kind: 'text' | 'integer' | 'enum';
  /** The text lengths a query text parameter declares, when they differ from 0–255. */
  readonly minLength?: number;
  readonly maxLength?: number;
}

/** A hostile value; `refused`: every route must answer 422 with a pointer at its position. */
interface Hostile {
  readonly label: string;
  /** The raw value: a path segment (already percent-encoded), a query text, a JSON literal. */
  readonly raw: string;
  readonly refused: boolean;
}

const WALLET_INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
  customer_reference: 'fuzz',
};

const LONG = 'x'.repeat(5_000);

const PATH_VALUES: readonly Hostile[] = [
  { label: 'NUL', raw: '%00', refused: true },
  { label: 'an id with NUL', raw: 'prun_%00x', refused: true },
  { label: '256 characters', raw: 'a'.repeat(256), refused: true },
  { label: 'a very long id', raw: encodeURIComponent(LONG), refused: true },
  { label: 'a lone surrogate (CESU-8)', raw: '%ED%A0%80', refused: false },
  { label: 'an overlong NUL', raw: '%C0%80', refused: false },
  { label: 'U+FFFD', raw: '%EF%BF%BD', refused: false },
  { label: 'an emoji', raw: encodeURIComponent('🙂'), refused: false },
  { label: 'a huge number', raw: '9'.repeat(40), refused: false },
  { label: '2^31', raw: '2147483648', refused: false },
  { label: '1e999', raw: '1e999', refused: false },
  { label: '-1', raw: '-1', refused: false },
  { label: 'a space', raw: '%20', refused: false },
  { label: '255 characters', raw: 'a'.repeat(255), refused: false },
];

const QUERY_TEXT_VALUES: readonly Hostile[] = [
  { label: 'NUL', raw: '\u0000', refused: true },
  { label: 'an id with NUL', raw: 'prun_\u0000', refused: true },
  { label: '256 characters', raw: 'a'.repeat(256), refused: true },
  { label: 'a very long text', raw: LONG, refused: true },
  { label: 'a lone surrogate', raw: '\ud800', refused: false },
  { label: 'empty', raw: '', refused: false },
  { label: 'a huge number', raw: '9'.repeat(40), refused: false },
  { label: '1e999', raw: '1e999', refused: false },
  { label: 'right-to-left override', raw: '\u202e', refused: false },
];

/** Anything but a canonical decimal integer in range is refused. */
const QUERY_INTEGER_VALUES: readonly Hostile[] = [
  ...['1e2', '0x10', '+5', ' 5', '5 ', '05', '1.5', '', '-0', '1e999', 'NaN', 'Infinity'].map(
    (raw) => ({ label: JSON.stringify(raw), raw, refused: true }),
  ),
  ...['-1', '2147483648', '4294967296', '9007199254740993', '9'.repeat(40), '\u0000'].map(
    (raw) => ({ label: JSON.stringify(raw), raw, refused: true }),
  ),
  { label: '1', raw: '1', refused: false },
];

const QUERY_ENUM_VALUES: readonly Hostile[] = [
  { label: 'NUL', raw: '\u0000', refused: true },
  { label: 'empty', raw: '', refused: true },
  { label: 'a long text', raw: LONG, refused: true },
  { label: 'a lone surrogate', raw: '\ud800', refused: true },
];

const BODY_VALUES: readonly Hostile[] = [
  { label: 'NUL', raw: '"\\u0000"', refused: true },
  { label: 'text with NUL', raw: '"a\\u0000b"', refused: true },
  { label: 'a lone high surrogate', raw: '"\\ud800"', refused: true },
  { label: 'a lone low surrogate', raw: '"x\\udfffy"', refused: true },
  { label: 'a key with NUL', raw: '{"k\\u0000":1}', refused: true },
  { label: 'a lone surrogate in a list', raw: '["ok","\\udbff"]', refused: true },
  { label: '1e999', raw: '1e999', refused: true },
  { label: '-1e999', raw: '-1e999', refused: true },
  { label: '2^53', raw: '9007199254740992', refused: true },
  { label: '2^53 + 1', raw: '9007199254740993', refused: true },
  { label: '1e300', raw: '1e300', refused: true },
  { label: 'a huge integer', raw: '9'.repeat(40), refused: true },
  { label: 'raw NUL inside a string', raw: '"a\u0000b"', refused: false },
  { label: 'empty text', raw: '""', refused: false },
  { label: 'blank text', raw: '"   "', refused: false },
  { label: 'very long text', raw: `"${LONG}"`, refused: false },
  { label: 'U+FFFD', raw: '"\\ufffd"', refused: false },
  { label: 'a surrogate pair', raw: '"\\ud83d\\ude00"', refused: false },
  { label: 'numeric text', raw: '"1e999"', refused: false },
  { label: 'null', raw: 'null', refused: false },
  { label: 'true', raw: 'true', refused: false },
  { label: 'an empty list', raw: '[]', refused: false },
  { label: 'an empty object', raw: '{}', refused: false },
  { label: '0', raw: '0', refused: false },
  { label: '-1', raw: '-1', refused: false },
  { label: '1.5', raw: '1.5', refused: false },
  { label: '2^31', raw: '2147483648', refused: false },
  { label: '2^53 - 1', raw: '9007199254740991', refused: false },
  { label: '1e-999', raw: '1e-999', refused: false },
];

/** Valid bodies per operation, so a single hostile field is what a request gets wrong. */
function baselineBodies(fixture: Fixture): Readonly<Record<string, Record<string, unknown>>> {
  return {
    createProgramRun: {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
      session_id: 'sess_fuzz',
      source_path: 'fuzz/run.json',
    },
    decideApproval: { step: 'amount_gate', decision: 'approve', approver: 'ops:ana', note: 'ok' },
    answerHandoff: { outcome: 'confirmed', reference: 'ref-1', data: { note: 'ok', n: 1 } },
    cancelProgramRun: { reason: 'fuzz' },
    createAccessRequest: {
      session_id: 'sess_fuzz',
      name: 'Ana',
      email: 'ana@example.com',
      company: 'Example',
      use_case: 'testing',
    },
    createWebhookEndpoint: {
      url: 'https://hooks.example.com/fuzz',
      enabled_events: ['program_run.completed'],
      description: 'fuzz',
    },
    updateWebhookEndpoint: {
      url: 'https://hooks.example.com/fuzz-2',
      enabled_events: ['program_run.completed'],
      description: 'fuzz',
      status: 'enabled',
    },
    rotateWebhookSecret: { overlap_seconds: 60 },
    redeliverEvent: { endpoint: fixture.endpointId },
    advanceTestClock: { seconds: 1 },
  };
}

/** Ids of objects that exist, so hostile values elsewhere reach the deepest code. */
interface Fixture {
  readonly runId: string;
  readonly endpointId: string;
  readonly eventId: string;
}

/** One route as the OpenAPI document describes it. */
interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly positions: readonly Position[];
}

type Json = Record<string, unknown>;

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The leaves of a value (and each object and list itself) as JSON pointers. */
function pointersOf(value: unknown, pointer = ''): string[] {
  if (Array.isArray(value))
    return [pointer, ...value.flatMap((item, index) => pointersOf(item, `${pointer}/${index}`))];
  if (typeof value === 'object' && value !== null)
    return [
      ...(pointer === '' ? [] : [pointer]),
      ...Object.entries(value).flatMap(([key, item]) =>
        pointersOf(item, `${pointer}/${escapeToken(key)}`),
      ),
    ];
  return [pointer];
}

function resolve(document: Json, node: unknown): Json {
  const reference = (node as { $ref?: string } | undefined)?.$ref;
  if (reference === undefined) return (node ?? {}) as Json;
  return resolve(
    document,
    reference
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)[key], document),
  );
}

/** Every operation of the document with its parameter and body positions. */
function operationsOf(document: Json, bodies: Readonly<Record<string, Json>>): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = raw as Json;
      if (typeof operation.operationId !== 'string') continue;
      const positions: Position[] = [];
      for (const parameterNode of (operation.parameters ?? []) as unknown[]) {
        const parameter = resolve(document, parameterNode);
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        const schema = resolve(document, parameter.schema);
        positions.push({
          location: parameter.in,
          name: String(parameter.name),
          kind: schema.enum ? 'enum' : schema.type === 'integer' ? 'integer' : 'text',
          ...(typeof schema.minLength === 'number' ? { minLength: schema.minLength } : {}),
          ...(typeof schema.maxLength === 'number' ? { maxLength: schema.maxLength } : {}),
        });
      }
      const requestBody = operation.requestBody as
        { content: Record<string, Json | undefined> } | undefined;
      const body = resolve(document, requestBody?.content['application/json']?.schema);
      if (operation.requestBody) {
        const baseline = bodies[operation.operationId];
        if (baseline === undefined)
          throw new Error(`no baseline body for ${operation.operationId}: add one`);
        const declared = Object.keys((body.properties ?? {}) as Json).map(
          (key) => `/${escapeToken(key)}`,
        );
        for (const pointer of new Set([...pointersOf(baseline), ...declared]))
          positions.push({ location: 'body', name: pointer, kind: 'text' });
      }
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        positions,
      });
    }
  }
  return operations;
}

function valuesFor(position: Position): readonly Hostile[] {
  if (position.location === 'body') return BODY_VALUES;
  if (position.location === 'path') return PATH_VALUES;
  if (position.kind === 'integer') return QUERY_INTEGER_VALUES;
  return position.kind === 'enum' ? QUERY_ENUM_VALUES : queryTextValues(position);
}

/**
 * The query text values, held to the lengths the parameter declares: a text parameter of
 * another longest length than 255 gets its own longest (taken) and one more (refused); one
 * that may not be empty gets empty refused.
 */
function queryTextValues({ minLength = 0, maxLength = 255 }: Position): readonly Hostile[] {
  if (minLength === 0 && maxLength === 255) return QUERY_TEXT_VALUES;
  return [
    ...QUERY_TEXT_VALUES.filter((value) => value.raw.length !== 256 && value.raw !== ''),
    { label: `${maxLength} characters`, raw: 'a'.repeat(maxLength), refused: false },
    { label: `${maxLength + 1} characters`, raw: 'a'.repeat(maxLength + 1), refused: true },
    { label: 'empty', raw: '', refused: minLength > 0 },
  ];
}

/** Sets `pointer` in a copy of `body` to a marker, to be replaced by a raw JSON literal. */
function withMarker(body: Json, pointer: string, marker: string): Json {
  const copy = structuredClone(body);
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Record<string, unknown> = copy;
  for (const token of tokens.slice(0, -1)) node = node[token] as Record<string, unknown>;
  node[tokens.at(-1)!] = marker;
  return copy;
}

/** A request with hostile values at some positions of an operation; the rest is valid. */
function buildRequest(
  target: HostileInputTarget,
  operation: Operation,
  fixture: Fixture,
  baseline: Json | undefined,
  choices: readonly (readonly [Position, Hostile])[],
): Request {
  const pathValues: Record<string, string> = {
    id: operation.path.startsWith('/v1/webhook-endpoints')
      ? fixture.endpointId
      : operation.path.startsWith('/v1/events')
        ? fixture.eventId
        : operation.path.startsWith('/v1/scenarios')
          ? 'wallet-delivery%40v1'
          : fixture.runId,
    step: 'screen_destination',
  };
  const query = new URLSearchParams();
  let body = baseline;
  const literals = new Map<string, string>();
  for (const [index, [position, value]] of choices.entries()) {
    if (position.location === 'path') pathValues[position.name] = value.raw;
    else if (position.location === 'query') query.set(position.name, value.raw);
    else {
      const marker = `@@hostile${index}@@`;
      body = withMarker(body!, position.name, marker);
      literals.set(JSON.stringify(marker), value.raw);
    }
  }
  let bodyText = body === undefined ? undefined : JSON.stringify(body);
  for (const [marker, literal] of literals)
    // A function, so `$` in the literal is not a replacement pattern.
    bodyText = bodyText!.replace(marker, () => literal);
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => pathValues[name]!);
  const search = query.toString();
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
  if (bodyText !== undefined) headers['content-type'] = 'application/json';
  if (operation.method === 'POST') headers['idempotency-key'] = crypto.randomUUID();
  return new Request(`http://programrun.test${path}${search ? `?${search}` : ''}`, {
    method: operation.method,
    headers,
    ...(bodyText === undefined ? {} : { body: bodyText }),
  });
}

/** Codes that blame a field: they must point at it. */
const FIELD_CODES = new Set([
  'invalid_request',
  'invalid_query',
  'invalid_path',
  'invalid_inputs',
  'duplicate_json_key',
]);

/** Where the answer to a refused value must point. */
const expectedPointer = (position: Position): string =>
  position.location === 'body' ? position.name : `/${position.name}`;

/** Checks an answer: never 5xx; a 4xx is a valid problem+json, pointing where a field is at fault. */
async function checkAnswer(response: Response, what: string): Promise<Json | undefined> {
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(response.headers.get('request-id'), what).toMatch(/^req_/);
  if (response.status < 400) return undefined;
  expect(response.headers.get('content-type'), what).toBe('application/problem+json');
  const problem = JSON.parse(text) as Json;
  const code = String(problem.code) as keyof typeof ERROR_CATALOGUE;
  expect(Object.hasOwn(ERROR_CATALOGUE, code), `${what}: unknown code ${code}`).toBe(true);
  expect(problem, what).toMatchObject({
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: ERROR_CATALOGUE[code].title,
    status: response.status,
    request_id: response.headers.get('request-id'),
  });
  expect(typeof problem.detail, what).toBe('string');
  const errors = problem.errors as Json[];
  expect(Array.isArray(errors), what).toBe(true);
  for (const field of errors) {
    expect(String(field.pointer), what).toMatch(/^(\/.*)?$/);
    expect(typeof field.code, what).toBe('string');
    expect(typeof field.message, what).toBe('string');
  }
  if (FIELD_CODES.has(code)) {
    expect(errors.length, `${what}: ${code} names no field`).toBeGreaterThan(0);
    for (const field of errors) expect(String(field.pointer), `${what}: ${code}`).not.toBe('');
  }
  return problem;
}

async function json(response: Response): Promise<Json> {
  const body = (await response.json()) as Json;
  if (response.status >= 300) throw new Error(`fixture request failed: ${JSON.stringify(body)}`);
  return body;
}

/** Creates an endpoint, a run and so an event, through the handler. */
async function createFixture(target: HostileInputTarget): Promise<Fixture> {
  const send = (method: string, path: string, body?: Json) =>
    target.handler.handle(
      new Request(`http://programrun.test${path}`, {
        method,
        headers: {
          authorization: `Bearer ${target.key}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const endpoint = await json(
    await send('POST', '/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/fixture',
      enabled_events: ['*'],
    }),
  );
  const run = await json(
    await send('POST', '/v1/program-runs', {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    }),
  );
  const events = await json(await send('GET', '/v1/events?limit=1'));
  const first = (events.data as Json[])[0];
  if (!first) throw new Error('the fixture run wrote no event');
  return { runId: String(run.id), endpointId: String(endpoint.id), eventId: String(first.id) };
}

/**
 * Defines the suite: for every route, each hostile value alone at each position (a
 * refused value must be answered 422 with a pointer at its position), then random
 * combinations at several positions; never a 5xx, every 4xx a valid problem+json.
 */
export function defineHostileInputSuite(
  name: string,
  createTarget: () => Promise<HostileInputTarget>,
  options: HostileInputOptions,
): void {
  describe(`hostile input on every route: ${name}`, () => {
    let target: HostileInputTarget;
    let fixture: Fixture;
    let operations: Operation[];
    beforeAll(async () => {
      target = await createTarget();
      fixture = await createFixture(target);
      operations = operationsOf(buildOpenApiDocument() as unknown as Json, baselineBodies(fixture));
    });
    afterAll(() => target.close());

    it('covers every route of the handler', () => {
      expect(operations.map((operation) => operation.operationId).sort()).toEqual(
        ROUTES.map((route) => route.operationId).sort(),
      );
    });

    it('answers each hostile value at each position without a 5xx; refused ones with 422 and a pointer', async () => {
      const bodies = baselineBodies(fixture);
      const tally = { requests: 0, refused: 0 };
      for (const operation of operations) {
        for (const position of operation.positions) {
          for (const value of valuesFor(position)) {
            tally.requests += 1;
            const what = `${operation.method} ${operation.path} ${position.location} ${position.name} = ${value.label}`;
            const response = await target.handler.handle(
              buildRequest(target, operation, fixture, bodies[operation.operationId], [
                [position, value],
              ]),
            );
            const problem = await checkAnswer(response, what);
            if (!value.refused) continue;
            tally.refused += 1;
            expect(response.status, what).toBe(422);
            const pointers = ((problem?.errors ?? []) as Json[]).map((field) =>
              String(field.pointer),
            );
            const expected = expectedPointer(position);
            expect(
              pointers.some(
                (pointer) => pointer === expected || pointer.startsWith(`${expected}/`),
              ),
              `${what}: pointers ${JSON.stringify(pointers)}, expected ${expected}`,
            ).toBe(true);
          }
        }
      }
      // Every route has positions to fill, so the sweep is large.
      expect(tally.requests).toBeGreaterThan(1_200);
      expect(tally.refused).toBeGreaterThan(500);
    });

    it('answers hostile values at several positions at once without a 5xx', async () => {
      const bodies = baselineBodies(fixture);
      const withPositions = operations.filter((operation) => operation.positions.length > 0);
      const choiceOf = (operation: Operation) =>
        fc.constantFrom(...operation.positions).chain((position) =>
          fc.tuple(
            fc.constant(position),
            fc.oneof(
              fc.constantFrom(...valuesFor(position)),
              fc.string({ unit: 'binary', maxLength: 20 }).map((text) => ({
                label: 'random text',
                raw:
                  position.location === 'body'
                    ? JSON.stringify(text)
                    : position.location === 'path'
                      ? encodeURIComponent(text.isWellFormed() ? text || 'x' : 'x')
                      : text,
                refused: false,
              })),
            ),
          ),
        );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...withPositions).chain((operation) =>
            fc.tuple(
              fc.constant(operation),
              fc.uniqueArray(choiceOf(operation), {
                minLength: 1,
                maxLength: 3,
                selector: ([position]) => `${position.location}${position.name}`,
              }),
            ),
          ),
          async ([operation, choices]) => {
            // A parent and its child cannot both be replaced: keep the outermost.
            const kept = choices.filter(
              ([position]) =>
                !choices.some(
                  ([other]) =>
                    other !== position &&
                    other.location === 'body' &&
                    position.location === 'body' &&
                    position.name.startsWith(`${other.name}/`),
                ),
            );
            const what = `${operation.method} ${operation.path} ${kept
              .map(([position, value]) => `${position.name}=${value.label}`)
              .join(', ')}`;
            const response = await target.handler.handle(
              buildRequest(target, operation, fixture, bodies[operation.operationId], kept),
            );
            await checkAnswer(response, what);
          },
        ),
        { numRuns: options.randomRunsPerRoute * withPositions.length },
      );
    });
  });
}
