import { fileURLToPath } from 'node:url';
import type { CompiledScenario } from '@programrun/dsl';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  formatApiKey,
  seededIds,
  createAccounts,
  type Accounts,
  type Engine,
  type EngineOptions,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk, type EvidenceKeySet } from '@programrun/evidence';
import { createHandler, type Handler, type HandlerOptions } from '../src/index.js';
import { listen, type Adapter } from './adapter-servers.js';
import { checkResponseAgainstOpenApi } from './openapi-conformance.js';

export { ADAPTERS, type Adapter } from './adapter-servers.js';

/** Test key of account `acct_one`. */
export const TEST_KEY = formatApiKey('test', '4eC39HqLyjWDarjtT1zdp7dc00000001');
/** Test key of account `acct_two`. */
export const OTHER_TEST_KEY = formatApiKey('test', 'Zz9yXw8vUt7sRq6pOn5mLk4j00000002');
/** Live key of account `acct_one`. */
export const LIVE_KEY = formatApiKey('live', '9aB8cD7eF6gH5iJ4kL3mN2oP00000003');

let scenarios: Promise<CompiledScenario[]> | undefined;
function catalogue(): Promise<CompiledScenario[]> {
  scenarios ??= loadCatalogue(fileURLToPath(new URL('../../../scenarios/', import.meta.url)));
  return scenarios;
}

/**
 * How a suite reaches the handler: `handle` calls `handler.handle` in process (the HTTP
 * semantics, tested once), an adapter serves it on a loopback socket (what each adapter
 * adds: bytes, streams, framework glue).
 */
export type Transport = 'handle' | Adapter;

/** A handler on a virtual test clock, reached through a transport, with a client. */
export interface TestServer {
  /** The origin requests go to; for `handle`, a name that no socket serves. */
  readonly baseUrl: string;
  readonly engine: Engine;
  readonly accounts: Accounts;
  request(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      key?: string | null;
      headers?: Record<string, string>;
      rawBody?: string;
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** The signing keys of every test server. */
export const evidenceKeys: EvidenceKeySet = createKeySet([
  { key: generateEd25519Jwk(), status: 'active' },
]);

/**
 * A fresh engine on a virtual clock and its handler, accepting the keys above (seeded in
 * the engine's key store). Rate limits (of requests and of failed authentications) are high
 * unless `handlerOptions` say otherwise; `engineOptions` add to (or replace) the engine's
 * (e.g. a live clock and connectors).
 */
export async function createTestHandler(
  handlerOptions: Partial<HandlerOptions> = {},
  engineOptions: Partial<EngineOptions> = {},
): Promise<{ engine: Engine; accounts: Accounts; handler: Handler }> {
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: await catalogue(),
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds('http-test'),
    evidence: { keys: evidenceKeys },
    // Test receivers listen on 127.0.0.1.
    webhooks: { allowLoopback: true },
    ...engineOptions,
  });
  const accounts = createAccounts({ store, ids: seededIds('http-test') });
  await accounts.apiKeys.create({ account: 'acct_one', environment: 'test', secret: TEST_KEY });
  await accounts.apiKeys.create({
    account: 'acct_two',
    environment: 'test',
    secret: OTHER_TEST_KEY,
  });
  await accounts.apiKeys.create({ account: 'acct_one', environment: 'live', secret: LIVE_KEY });
  const handler = createHandler({
    engine,
    accounts,
    rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
    failedAuthenticationLimit: { requestsPerSecond: 100_000, burst: 100_000 },
    ...handlerOptions,
  });
  return { engine, accounts, handler };
}

/**
 * Fails the test when a `/v1` (or probe) answer deviates from the OpenAPI document
 * (status, headers, body schema): every HTTP suite checks the document as a side effect.
 */
async function conformsToOpenApi(method: string, path: string, response: Response) {
  if (!/^\/(v1|healthz|readyz)(\/|$|\?)/.test(path)) return response;
  const bodyText = await response.clone().text();
  const problems = checkResponseAgainstOpenApi(method, path, {
    status: response.status,
    headers: response.headers,
    bodyText,
  });
  if (problems.length > 0) {
    throw new Error(
      `The answer does not match docs/reference/openapi.json:\n${problems.join('\n')}`,
    );
  }
  return response;
}

/** Calls the handler in process, as a socket-less transport. */
function inProcess(handler: Handler) {
  return {
    baseUrl: 'http://programrun.test',
    close: () => Promise.resolve(),
    send: (url: string, init: RequestInit) => handler.handle(new Request(url, init)),
  };
}

/**
 * Starts a fresh engine and handler behind `transport` (node:http by default), with
 * `engineOptions` added to the engine's.
 */
export async function startTestServer(
  transport: Transport = 'node',
  engineOptions: Partial<EngineOptions> = {},
): Promise<TestServer> {
  const { engine, accounts, handler } = await createTestHandler({}, engineOptions);
  const { baseUrl, close, send } =
    transport === 'handle'
      ? inProcess(handler)
      : {
          ...(await listen(transport, handler)),
          send: (url: string, init: RequestInit) => fetch(url, init),
        };
  return {
    baseUrl,
    engine,
    accounts,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? TEST_KEY : options.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      return send(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      }).then((response) => conformsToOpenApi(method, path, response));
    },
    close,
  };
}
