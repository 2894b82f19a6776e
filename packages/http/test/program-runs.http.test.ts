import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { verifyChain } from '@programrun/evidence';
import { LIVE_KEY, OTHER_TEST_KEY, startTestServer, type TestServer } from './harness.js';

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};
let server: TestServer;
let keyCounter = 0;
const newKey = () => `test-key-${(keyCounter += 1)}-${Date.now()}`;

async function createRun(
  body: unknown = { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
  key = newKey(),
) {
  return server.request('POST', '/v1/program-runs', { body, headers: { 'idempotency-key': key } });
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem).toMatchObject({ status, code, type: `https://programrun.dev/problems/${code}` });
  expect(problem.request_id).toBe(response.headers.get('request-id'));
  expect(typeof problem.detail).toBe('string');
  return problem as {
    errors: { pointer: string; code: string; message: string }[];
    detail: string;
  };
}

// The HTTP semantics, once, through handler.handle; adapter-conformance.http.test.ts
// checks that every adapter carries them over a socket.
describe('through handler.handle', () => {
  beforeAll(async () => {
    server = await startTestServer('handle');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('POST /v1/program-runs', () => {
    it('creates a run and answers 201 with the run record', async () => {
      const response = await createRun({
        scenario_id: 'wallet-delivery@v1',
        session_id: 'sess_abc',
        source_path: '/demo/wallet',
        inputs: walletInputs,
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      const run = (await response.json()) as Record<string, unknown>;
      expect(run).toMatchObject({
        object: 'program_run',
        livemode: false,
        scenario_id: 'wallet-delivery@v1',
        scenario_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
        status: 'waiting',
        stage: 'intake',
        session_id: 'sess_abc',
        source_path: '/demo/wallet',
        inputs: walletInputs,
        awaiting: {
          kind: 'handoff',
          step: 'screen_destination',
          deadline: '2026-03-02T09:10:00.000Z',
        },
        posture: { environment: 'test', asset_track: 'public_demo', execution: 'simulated' },
        policy: { decision: 'allow' },
        evidence: { chain_head: expect.stringMatching(/^sha256:/) as unknown, exportable: false },
      });
      expect(run.id).toMatch(/^prun_/);
      expect(run.stages).toEqual([
        expect.objectContaining({ id: 'intake', title: 'Intake and screening', status: 'active' }),
        expect.objectContaining({ id: 'release', title: 'Release approval', status: 'pending' }),
        expect.objectContaining({ id: 'delivery', title: 'Delivery', status: 'pending' }),
      ]);
      expect(run.created_at).toBe('2026-03-02T09:00:00.000Z');
    });

    it('requires an Idempotency-Key', async () => {
      const response = await server.request('POST', '/v1/program-runs', {
        body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
      });
      await expectProblem(response, 400, 'idempotency_key_missing');
    });

    it('replays the stored response for a retry and refuses the key for another body', async () => {
      const key = newKey();
      const first = await createRun(undefined, key);
      const firstBody = await first.text();
      const retry = await createRun(undefined, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.headers.get('original-request-id')).toBe(first.headers.get('request-id'));
      expect(await retry.text()).toBe(firstBody);
      const other = await createRun(
        { scenario_id: 'wallet-delivery@v1', inputs: { ...walletInputs, amount: '126.00' } },
        key,
      );
      await expectProblem(other, 422, 'idempotency_key_reused');
      // The same key is a different key for another account.
      const otherAccount = await server.request('POST', '/v1/program-runs', {
        key: OTHER_TEST_KEY,
        body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
        headers: { 'idempotency-key': key },
      });
      expect(otherAccount.status).toBe(201);
    });

    it('creates exactly one run when the same key races', async () => {
      const key = newKey();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => createRun(undefined, key)),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
      const bodies = await Promise.all(
        responses.filter((r) => r.status === 201).map((r) => r.json() as Promise<{ id: string }>),
      );
      expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
      const listed = (await (await server.request('GET', '/v1/program-runs?limit=100')).json()) as {
        data: { id: string }[];
      };
      expect(listed.data.filter((run) => run.id === bodies[0]!.id)).toHaveLength(1);
    });

    it('answers bad input with problem+json pointing at the fields', async () => {
      await expectProblem(
        await server.request('POST', '/v1/program-runs', {
          rawBody: '{"scenario_id":',
          headers: { 'content-type': 'application/json', 'idempotency-key': newKey() },
        }),
        400,
        'malformed_json',
      );
      const unknownScenario = await expectProblem(
        await createRun({ scenario_id: 'nope@v9', inputs: {} }),
        404,
        'scenario_not_found',
      );
      expect(unknownScenario.errors[0]!.pointer).toBe('/scenario_id');
      const invalid = await expectProblem(
        await createRun({
          scenario_id: 'wallet-delivery@v1',
          inputs: { ...walletInputs, amount: '12.5' },
        }),
        422,
        'invalid_inputs',
      );
      expect(invalid.errors).toEqual([
        {
          pointer: '/inputs/amount',
          code: 'invalid_input',
          message:
            'must be a positive amount with exactly two fraction digits, as a string, e.g. "125.00"',
        },
      ]);
      const unknownField = await expectProblem(
        await createRun({ scenario_id: 'wallet-delivery@v1', inputs: walletInputs, bogus: 1 }),
        422,
        'invalid_request',
      );
      expect(unknownField.errors).toEqual([
        { pointer: '/bogus', code: 'unknown_field', message: 'is not a field of this request' },
      ]);
      const missing = await expectProblem(
        await createRun({ inputs: walletInputs }),
        422,
        'invalid_request',
      );
      expect(missing.errors).toEqual([
        { pointer: '/scenario_id', code: 'missing_field', message: 'is required' },
      ]);
      await expectProblem(
        await server.request('POST', '/v1/program-runs', {
          rawBody: 'amount=1',
          headers: { 'content-type': 'text/plain', 'idempotency-key': newKey() },
        }),
        415,
        'unsupported_media_type',
      );
      await expectProblem(
        await createRun({
          scenario_id: 'wallet-delivery@v1',
          inputs: { memo: 'x'.repeat(70_000) },
        }),
        413,
        'payload_too_large',
      );
    });

    it('lets a validation failure be retried with the same key', async () => {
      const key = newKey();
      await expectProblem(
        await createRun({ scenario_id: 'wallet-delivery@v1', inputs: {} }, key),
        422,
        'invalid_inputs',
      );
      expect((await createRun(undefined, key)).status).toBe(201);
    });

    it('answers 401 unauthorized without a key, and one invalid_token body for a malformed or unknown key', async () => {
      const missing = await server.request('GET', '/v1/scenarios', { key: null });
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="programrun"');
      await expectProblem(missing, 401, 'unauthorized');
      const bodies = [];
      for (const key of ['nope', 'pr_test_unknownunknownunknown']) {
        const response = await server.request('GET', '/v1/scenarios', { key });
        expect(response.headers.get('www-authenticate')).toBe(
          'Bearer realm="programrun", error="invalid_token"',
        );
        const problem = await expectProblem(response, 401, 'invalid_token');
        bodies.push({ ...problem, request_id: undefined });
      }
      expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    });

    it('never answers 5xx to random JSON bodies', async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (body) => {
          const response = await createRun(body);
          expect(response.status).toBeLessThan(500);
          if (response.status !== 201) {
            expect(response.headers.get('content-type')).toBe('application/problem+json');
          }
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('a run over HTTP', () => {
    it('moves through its stages with the test clock, an approval and partner answers', async () => {
      const created = (await (await createRun()).json()) as { id: string };
      const path = `/v1/program-runs/${created.id}`;
      const advance = await server.request('POST', '/v1/test_helpers/clock/advance', {
        body: { seconds: 30 },
      });
      expect(advance.status).toBe(200);
      expect(await advance.json()).toMatchObject({ object: 'test_clock', advanced_by: 30 });

      const waiting = (await (await server.request('GET', path)).json()) as Record<string, unknown>;
      expect(waiting).toMatchObject({
        status: 'waiting',
        awaiting: { kind: 'approval', step: 'release_approval' },
      });

      await expectProblem(
        await server.request('POST', `${path}/approvals`, {
          body: { step: 'amount_gate', decision: 'approve', approver: 'x' },
        }),
        409,
        'step_not_awaiting',
      );
      const approvalBody = { step: 'release_approval', decision: 'approve', approver: 'ops:alice' };
      const approved = await server.request('POST', `${path}/approvals`, { body: approvalBody });
      expect(approved.status).toBe(200);
      expect(await approved.json()).toMatchObject({
        awaiting: { kind: 'handoff', step: 'transfer_to_wallet' },
      });

      const callback = await server.request('POST', `${path}/handoffs/transfer_to_wallet`, {
        body: { outcome: 'confirmed', reference: '0xfeed', data: { confirmations: 12 } },
      });
      expect(callback.status).toBe(200);
      expect(await callback.json()).toMatchObject({ status: 'completed', awaiting: null });
      const duplicate = await server.request('POST', `${path}/handoffs/transfer_to_wallet`, {
        body: { outcome: 'confirmed', reference: '0xfeed', data: { confirmations: 12 } },
      });
      expect(duplicate.status).toBe(200);
      await expectProblem(await server.request('POST', `${path}/cancel`), 409, 'run_finished');

      const events = (await (await server.request('GET', `${path}/events`)).json()) as {
        data: {
          id: string;
          type: string;
          sequence: number;
          stage: string | null;
          step: string | null;
          created: string;
        }[];
      };
      expect(events.data.slice(-2).map((event) => event.type)).toEqual([
        'program_run.completed',
        'program_run.evidence.sealed',
      ]);
      for (const [index, event] of events.data.entries()) {
        expect(event.sequence).toBe(index + 1);
        expect(event.id).toMatch(/^evt_/);
        expect(Object.keys(event)).toEqual(
          expect.arrayContaining(['id', 'type', 'sequence', 'stage', 'step', 'created']),
        );
      }
      const run = (await (await server.request('GET', path)).json()) as {
        evidence: { chain_head: `sha256:${string}` };
      };
      expect(verifyChain(events.data, { expectedHead: run.evidence.chain_head }).ok).toBe(true);
      const page = (await (
        await server.request('GET', `${path}/events?after_sequence=2&limit=2`)
      ).json()) as {
        data: { sequence: number }[];
        has_more: boolean;
      };
      expect(page.data.map((event) => event.sequence)).toEqual([3, 4]);
      expect(page.has_more).toBe(true);
    });

    it('answers 413 to an oversized signal body and leaves the run as it was', async () => {
      const created = (await (await createRun()).json()) as { id: string };
      await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 30 } });
      const response = await server.request('POST', `/v1/program-runs/${created.id}/cancel`, {
        body: { reason: 'x'.repeat(70_000) },
      });
      await expectProblem(response, 413, 'payload_too_large');
      const run = (await (
        await server.request('GET', `/v1/program-runs/${created.id}`)
      ).json()) as {
        status: string;
      };
      expect(run.status).toBe('waiting');
    });

    it('checks the partner idempotency key format on callbacks', async () => {
      const created = (await (await createRun()).json()) as { id: string };
      const response = await server.request(
        'POST',
        `/v1/program-runs/${created.id}/handoffs/screen_destination`,
        {
          body: { outcome: 'confirmed', reference: 'r', idempotency_key: 'not-a-key' },
        },
      );
      const problem = await expectProblem(response, 422, 'invalid_request');
      expect(problem.errors[0]!.pointer).toBe('/idempotency_key');
    });

    it('cancels a run waiting for an approval', async () => {
      const created = (await (await createRun()).json()) as { id: string };
      await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 30 } });
      const response = await server.request('POST', `/v1/program-runs/${created.id}/cancel`, {
        body: { reason: 'customer asked' },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'cancelled',
        outcome: { status: 'cancelled', message: 'customer asked' },
      });
    });

    it('hides runs of other accounts and environments behind 404', async () => {
      const created = (await (await createRun()).json()) as { id: string };
      await expectProblem(
        await server.request('GET', `/v1/program-runs/${created.id}`, { key: OTHER_TEST_KEY }),
        404,
        'run_not_found',
      );
      await expectProblem(
        await server.request('GET', `/v1/program-runs/${created.id}`, { key: LIVE_KEY }),
        404,
        'run_not_found',
      );
    });

    it('keeps test helpers to test keys', async () => {
      await expectProblem(
        await server.request('POST', '/v1/test_helpers/clock/advance', {
          key: LIVE_KEY,
          body: { seconds: 5 },
        }),
        403,
        'test_mode_only',
      );
    });

    it('lists runs with filters and rejects bad query parameters', async () => {
      const response = await server.request(
        'GET',
        '/v1/program-runs?limit=2&scenario_id=wallet-delivery@v1',
      );
      const page = (await response.json()) as {
        object: string;
        data: unknown[];
        has_more: boolean;
      };
      expect(page.object).toBe('list');
      expect(page.data).toHaveLength(2);
      await expectProblem(
        await server.request('GET', '/v1/program-runs?limit=1000'),
        422,
        'invalid_query',
      );
      await expectProblem(
        await server.request('GET', '/v1/program-runs?status=nope'),
        422,
        'invalid_query',
      );
    });

    it('answers 404 for unknown routes and 405 for wrong methods', async () => {
      await expectProblem(await server.request('GET', '/v1/nothing'), 404, 'route_not_found');
      const wrong = await server.request('DELETE', '/v1/program-runs');
      await expectProblem(wrong, 405, 'method_not_allowed');
    });
  });

  describe('GET /v1/scenarios', () => {
    it('lists the catalogue with input schemas, stages, parties and example inputs', async () => {
      const response = await server.request('GET', '/v1/scenarios');
      expect(response.status).toBe(200);
      const list = (await response.json()) as { data: Record<string, unknown>[] };
      expect(list.data.length).toBeGreaterThanOrEqual(1);
      for (const entry of list.data) {
        expect(entry).toMatchObject({ object: 'scenario' });
        expect(Object.keys(entry)).toEqual(
          expect.arrayContaining([
            'id',
            'family',
            'asset_track',
            'input_schema',
            'example_inputs',
            'stages',
            'parties',
          ]),
        );
      }
      const one = await server.request('GET', '/v1/scenarios/wallet-delivery@v1');
      expect(await one.json()).toMatchObject({
        id: 'wallet-delivery@v1',
        asset_track: 'public_demo',
        family: 'wallet_delivery',
      });
      await expectProblem(
        await server.request('GET', '/v1/scenarios/nope@v1'),
        404,
        'scenario_not_found',
      );
    });
  });
});
