import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_KEY, OTHER_TEST_KEY, startTestServer, TEST_KEY, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

const create = async (key: string, scenarioId: string) => {
  const scenario = server.engine.scenarios.get(scenarioId);
  return server.request('POST', '/v1/program-runs', {
    key,
    body: { scenario_id: scenarioId, inputs: scenario.definition.example_inputs },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
};

interface RunBody {
  id: string;
  status: string;
  stage: string | null;
  awaiting: { step: string; deadline: string | null } | null;
  updated_at: string;
  posture: { asset_track: string; activation: Record<string, unknown> };
}

describe('asset tracks over HTTP', () => {
  it('holds a live restricted run suspended until the account’s issuer activation', async () => {
    const response = await create(LIVE_KEY, 'reserve-usd-cycle@v1');
    expect(response.status).toBe(201);
    const run = (await response.json()) as RunBody;
    expect(run).toMatchObject({
      status: 'suspended',
      stage: null,
      awaiting: null,
      posture: {
        asset_track: 'restricted',
        activation: { required: true, status: 'pending', reference: null, activated_at: null },
      },
    });
    const refused = await server.request('POST', `/v1/program-runs/${run.id}/approvals`, {
      key: LIVE_KEY,
      body: { step: 'participant_approval', decision: 'approve', approver: 'ops:ana' },
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'run_suspended',
      detail: expect.stringContaining('issuer activation for reserve-usd-cycle') as unknown,
    });

    const { resumed_runs } = await server.engine.activations.activate('acct_one', {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-HTTP-1',
    });
    expect(resumed_runs).toContain(run.id);
    const started = (await (
      await server.request('GET', `/v1/program-runs/${run.id}`, { key: LIVE_KEY })
    ).json()) as RunBody;
    expect(started.status).not.toBe('suspended');
    expect(started.posture.activation).toMatchObject({ status: 'active', reference: 'ISS-HTTP-1' });
    const events = (await (
      await server.request('GET', `/v1/program-runs/${run.id}/events`, { key: LIVE_KEY })
    ).json()) as { data: { type: string }[] };
    expect(events.data.slice(0, 3).map((record) => record.type)).toEqual([
      'program_run.created',
      'program_run.suspended',
      'program_run.resumed',
    ]);
  });

  it('runs restricted scenarios simulated with test keys, no activation needed', async () => {
    const run = (await (await create(TEST_KEY, 'sukuk-servicing@v1')).json()) as RunBody;
    expect(run.status).not.toBe('suspended');
    expect(run.posture.activation).toMatchObject({ required: false, status: 'not_required' });
  });

  it('refuses production_placeholder scenarios in live, naming the track', async () => {
    const response = await create(LIVE_KEY, 'qr-merchant-settlement@v1');
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'track_not_available',
      detail: expect.stringContaining('production_placeholder') as unknown,
      errors: [
        {
          pointer: '/scenario_id',
          code: 'track_not_available',
          message: 'is on the production_placeholder track, which runs only with test keys',
        },
      ],
    });
    expect((await create(TEST_KEY, 'qr-merchant-settlement@v1')).status).toBe(201);
  });
});

describe('test clocks over HTTP', () => {
  it('are per account: one account advancing never moves another’s runs', async () => {
    const mine = (await (await create(TEST_KEY, 'wallet-delivery@v1')).json()) as RunBody;
    const theirs = (await (await create(OTHER_TEST_KEY, 'wallet-delivery@v1')).json()) as RunBody;
    const advanced = await server.request('POST', '/v1/test_helpers/clock/advance', {
      key: TEST_KEY,
      body: { seconds: 3600 },
    });
    expect(advanced.status).toBe(200);
    const clock = (await advanced.json()) as { now: string; timers_fired: number };
    expect(clock.timers_fired).toBeGreaterThan(0);
    const mineAfter = (await (
      await server.request('GET', `/v1/program-runs/${mine.id}`)
    ).json()) as RunBody;
    expect(mineAfter.updated_at).not.toBe(mine.updated_at);
    const theirsAfter = (await (
      await server.request('GET', `/v1/program-runs/${theirs.id}`, { key: OTHER_TEST_KEY })
    ).json()) as RunBody;
    expect(theirsAfter).toEqual(theirs);
    // Their clock still reads the start; a zero-second advance reports it.
    const theirClock = (await (
      await server.request('POST', '/v1/test_helpers/clock/advance', {
        key: OTHER_TEST_KEY,
        body: { seconds: 1 },
      })
    ).json()) as { now: string };
    expect(new Date(theirClock.now).getTime()).toBeLessThan(new Date(clock.now).getTime());
  });

  it('are refused to live keys', async () => {
    const response = await server.request('POST', '/v1/test_helpers/clock/advance', {
      key: LIVE_KEY,
      body: { seconds: 60 },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'test_mode_only' });
  });
});
