// A test client whose every answer is checked against the OpenAPI document, remembering
// which statuses each operation answered.
import { expect } from 'vitest';
import type { TestServer } from './harness.js';
import { checkResponseAgainstOpenApi, findOperation } from './openapi-conformance.js';

/** An answer, its body parsed (`{}` when empty or not JSON), and its text. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown> & { id?: string; code?: string };
  readonly text: string;
}

/** Options of `TestServer.request`. */
export type RequestOptions = Parameters<TestServer['request']>[2];

/** Calls that fail the test when an answer does not conform. */
export interface ConformingClient {
  /** Statuses answered per operationId. */
  readonly seen: ReadonlyMap<string, ReadonlySet<number>>;
  /** A fresh Idempotency-Key. */
  readonly key: () => string;
  /** Checks an answer obtained some other way (e.g. `handler.handle`). */
  readonly conforming: (method: string, path: string, response: Response) => Promise<Answer>;
  readonly call: (method: string, path: string, options?: RequestOptions) => Promise<Answer>;
  readonly expectCall: (
    status: number,
    method: string,
    path: string,
    options?: RequestOptions,
  ) => Promise<Answer>;
  readonly expectProblem: (
    status: number,
    code: string,
    method: string,
    path: string,
    options?: RequestOptions,
  ) => Promise<Answer>;
  readonly exampleInputs: (scenarioId: string) => Promise<Record<string, unknown>>;
  /** Creates a run of a scenario with its example inputs; returns its id. */
  readonly createRun: (
    scenarioId: string,
    options?: { key?: string; session?: string },
  ) => Promise<string>;
}

/**
 * A conforming client of the server `server()` returns (started later, in `beforeAll`).
 *
 * @example
 * ```ts
 * const client = conformingClient(() => server);
 * await client.expectCall(200, 'GET', '/v1/scenarios');
 * ```
 */
export function conformingClient(server: () => TestServer): ConformingClient {
  const seen = new Map<string, Set<number>>();
  let counter = 0;
  const client: ConformingClient = {
    seen,
    key: () => `openapi-${(counter += 1)}`,
    async conforming(method, path, response) {
      const bodyText = await response.text();
      const captured = { status: response.status, headers: response.headers, bodyText };
      expect(checkResponseAgainstOpenApi(method, path, captured)).toEqual([]);
      const operation = findOperation(method, path);
      if (operation) {
        const statuses = seen.get(operation.operationId) ?? new Set();
        seen.set(operation.operationId, statuses.add(response.status));
      }
      // SVG and event streams are text; everything else the API answers is JSON.
      const json = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
      return {
        status: response.status,
        headers: response.headers,
        body: bodyText && json ? JSON.parse(bodyText) : {},
        text: bodyText,
      };
    },
    async call(method, path, options) {
      return client.conforming(method, path, await server().request(method, path, options));
    },
    async expectCall(status, method, path, options) {
      const answer = await client.call(method, path, options);
      expect({ status: answer.status, code: answer.body.code }).toMatchObject({ status });
      return answer;
    },
    async expectProblem(status, code, method, path, options) {
      const answer = await client.call(method, path, options);
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
      return answer;
    },
    async exampleInputs(scenarioId) {
      const scenario = await client.expectCall(200, 'GET', `/v1/scenarios/${scenarioId}`);
      return scenario.body.example_inputs as Record<string, unknown>;
    },
    async createRun(scenarioId, options = {}) {
      const answer = await client.expectCall(201, 'POST', '/v1/program-runs', {
        ...(options.key ? { key: options.key } : {}),
        body: {
          scenario_id: scenarioId,
          inputs: await client.exampleInputs(scenarioId),
          ...(options.session ? { session_id: options.session } : {}),
        },
        headers: { 'idempotency-key': client.key() },
      });
      return answer.body.id!;
    },
  };
  return client;
}
