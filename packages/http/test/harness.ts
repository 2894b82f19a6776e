import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  compile,
  formatProblem,
  loadScenarioDirectory,
  type CompiledScenario,
} from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type Engine,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk, type EvidenceKeySet } from '@programrun/evidence';
import { createApiKeyAuthenticator, createHandler } from '../src/index.js';
import { createNodeListener } from '../src/node.js';

export const TEST_KEY = 'pr_test_4eC39HqLyjWDarjtT1zdp7dc';
export const OTHER_TEST_KEY = 'pr_test_Zz9yXw8vUt7sRq6pOn5mLk4j';
export const LIVE_KEY = 'pr_live_9aB8cD7eF6gH5iJ4kL3mN2oP';

let scenarios: Promise<CompiledScenario[]> | undefined;
function catalogue(): Promise<CompiledScenario[]> {
  scenarios ??= loadScenarioDirectory(
    fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
  ).then((loaded) => {
    if (loaded.problems.length > 0) throw new Error(loaded.problems.map(formatProblem).join('\n'));
    return loaded.scenarios.map((scenario) => compile(scenario));
  });
  return scenarios;
}

/** A reference server on 127.0.0.1 with a virtual test clock and a real HTTP client. */
export interface TestServer {
  readonly baseUrl: string;
  readonly engine: Engine;
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

export async function startTestServer(): Promise<TestServer> {
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: await catalogue(),
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds('http-test'),
    evidence: { keys: evidenceKeys },
  });
  const handler = createHandler({
    engine,
    authenticate: createApiKeyAuthenticator([
      { key: TEST_KEY, account: 'acct_one' },
      { key: OTHER_TEST_KEY, account: 'acct_two' },
      { key: LIVE_KEY, account: 'acct_one' },
    ]),
  });
  const server: Server = createServer(createNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    engine,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? TEST_KEY : options.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      return fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
