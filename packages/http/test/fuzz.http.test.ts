import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ERROR_CATALOGUE, PROBLEM_TYPE_BASE } from '../src/index.js';
import { ADAPTERS, startTestServer, TEST_KEY, type TestServer } from './harness.js';

// Malformed methods, paths, headers and bodies through every adapter: the server never
// answers 5xx, never falls over, and every error is a valid problem+json document.

const RUNS = Number(process.env.PROGRAMRUN_FUZZ_RUNS ?? 120);

const SEGMENTS = [
  'v1',
  'program-runs',
  'scenarios',
  'wallet-delivery@v1',
  'events',
  'approvals',
  'handoffs',
  'cancel',
  'evidence',
  'evidence-keys',
  'access-requests',
  'test_helpers',
  'clock',
  'advance',
  'principal',
  'diagram',
  'stream',
  'openapi.json',
  'prun_123',
  '%zz',
  '%00',
  '%C0%AF',
  '..',
  '',
  'ü',
  '%F0%9F%92%B8',
];

const printable = (maxLength: number) =>
  fc
    .string({ unit: 'binary-ascii', maxLength })
    .map((text) => [...text].filter((char) => char >= ' ' && char !== '\x7f').join(''));

const pathArbitrary = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), printable(12).map(encodeURIComponent)), {
      minLength: 0,
      maxLength: 6,
    }),
    fc.option(
      printable(40).map((query) => `?${encodeURI(query)}`),
      { nil: '' },
    ),
  )
  .map(([segments, query]) => `/v1/${segments.join('/')}${query}`);

const validCreate = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    network: 'base',
  },
};

const bodyArbitrary: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  fc.jsonValue().map((value) => JSON.stringify({ ...validCreate, inputs: value })),
  fc
    .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 5 })
    .map((extra) => JSON.stringify({ ...validCreate, ...extra })),
  fc.constantFrom(
    '{"scenario_id":"wallet-delivery@v1","scenario_id":"x","inputs":{}}',
    `${'{"a":'.repeat(400)}1${'}'.repeat(400)}`,
    '{"amount":1e999}',
    '\uFEFF{}',
    'null',
    '[]',
    '{"outcome":"confirmed","reference":"r","idempotency_key":"pik_nope"}',
    '{"seconds":-1}',
    '{"seconds":1e300}',
    '{"to":"next_timer"}',
    '{"to":"next_timer","seconds":5}',
    '{"step":"release_approval","decision":"approve","approver":"   "}',
  ),
);

const headersArbitrary = fc.record(
  {
    authorization: fc.oneof(
      fc.constant(`Bearer ${TEST_KEY}`),
      fc.constant(`Bearer ${TEST_KEY.toLowerCase()}`),
      printable(60),
      printable(60).map((value) => `Bearer ${value}`),
    ),
    'content-type': fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/merge-patch+json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '',
      ),
      printable(40),
    ),
    'idempotency-key': fc.oneof(fc.uuid(), printable(300), fc.constant('')),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
  },
  { requiredKeys: [] },
);

const requestArbitrary = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  path: pathArbitrary,
  headers: headersArbitrary,
  body: bodyArbitrary,
});

/** Checks an error answer is a valid problem+json document; returns its text for messages. */
async function expectValidProblem(response: Response): Promise<void> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  const code = problem.code as keyof typeof ERROR_CATALOGUE;
  expect(Object.hasOwn(ERROR_CATALOGUE, code)).toBe(true);
  expect(problem).toMatchObject({
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: ERROR_CATALOGUE[code].title,
    status: response.status,
    request_id: response.headers.get('request-id'),
  });
  expect(ERROR_CATALOGUE[code].status).toBe(response.status);
  expect(typeof problem.detail).toBe('string');
  expect(String(problem.detail)).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack traces
  expect(Array.isArray(problem.errors)).toBe(true);
  for (const field of problem.errors as Record<string, unknown>[]) {
    expect(typeof field.pointer).toBe('string');
    expect(String(field.pointer)).toMatch(/^(\/.*)?$/);
    expect(typeof field.code).toBe('string');
    expect(typeof field.message).toBe('string');
  }
}

/** Sends raw bytes over a socket and returns the status code and head of the answer. */
function rawRequest(
  baseUrl: string,
  text: string,
): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(text)}`));
    }, 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.write(text);
  });
}

describe.each(ADAPTERS)('fuzzing the %s adapter', (adapter) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(adapter);
  });
  afterAll(async () => {
    await server.close();
  });

  it('never answers 5xx to malformed methods, paths, headers and bodies; errors are problem+json', async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async ({ method, path, headers, body }) => {
        const sendsBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
        const response = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers,
          ...(sendsBody ? { body } : {}),
        });
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        // Paths that normalise out of /v1 (e.g. /v1/..) belong to the host's own routes.
        const ours = /^\/v1(\/|$)/.test(new URL(path, server.baseUrl).pathname);
        if (ours) expect(response.headers.get('request-id'), `${method} ${path}`).toMatch(/^req_/);
        if (ours && response.status >= 400 && method !== 'HEAD') await expectValidProblem(response);
        else await response.arrayBuffer();
      }),
      { numRuns: RUNS },
    );
    // Still serving.
    expect((await server.request('GET', '/v1/scenarios')).status).toBe(200);
  });

  it('survives malformed HTTP on the wire', async () => {
    const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
    const requests = [
      `GET /v1/scenarios HTTP/1.1\r\nHost: a b\r\n${auth}Connection: close\r\n\r\n`,
      `GET /v1/scenarios HTTP/1.1\r\nHost: [::1\r\n${auth}Connection: close\r\n\r\n`,
      `GET /v1/scenarios HTTP/1.1\r\nHost: %zz\r\n${auth}Connection: close\r\n\r\n`,
      `GET http://elsewhere.example/v1/scenarios HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
      `GET /v1/scenarios HTTP/1.0\r\n${auth}\r\n`,
      `GET //v1//scenarios HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
      `GET /v1/program-runs/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
      `POST /v1/program-runs HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nIdempotency-Key: k\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"a":`,
      `POST /v1/program-runs HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nIdempotency-Key: k2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\n{"a\r\n0\r\n\r\n`,
      `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ];
    for (const text of requests) {
      const { status, head, body } = await rawRequest(server.baseUrl, text);
      expect(status, JSON.stringify(text)).toBeGreaterThanOrEqual(200);
      expect(status, JSON.stringify(text)).toBeLessThan(500);
      if (/content-type: application\/problem\+json/i.test(head)) {
        const json = body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/gi, '');
        expect(() => {
          JSON.parse(json);
        }).not.toThrow();
      }
    }
    expect((await server.request('GET', '/v1/scenarios')).status).toBe(200);
  });
});
