import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  DEFAULT_RETRY_SCHEDULE,
  seededIds,
  type AdjustableClock,
  type Engine,
  type EventRecord,
  type Scope,
} from '@programrun/engine';
import { createWebhookDispatcher, type WebhookDispatcher } from '../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from '../../engine/test/scenarios.js';
import { startReceiver, type TestReceiver } from './receiver.js';

const test: Scope = { account: 'acct_hooks', environment: 'test' };
const live: Scope = { account: 'acct_hooks', environment: 'live' };
const inputs = WALLET_INPUTS;

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Harness {
  engine: Engine;
  clock: AdjustableClock;
  dispatcher: WebhookDispatcher;
}

function harness(options: { timeoutMs?: number; concurrency?: number } = {}): Harness {
  const clock = createVirtualClock('2026-03-02T09:00:00.000Z');
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios,
    clock,
    testClock: clock,
    ids: seededIds('webhooks'),
    webhooks: { allowLoopback: true, random: () => 0.5 },
  });
  const dispatcher = createWebhookDispatcher(engine, {
    timeoutMs: options.timeoutMs ?? 2000,
    concurrency: options.concurrency ?? 8,
  });
  cleanup.push(() => dispatcher.stop());
  return { engine, clock, dispatcher };
}

async function receiver(secrets: string[] = []): Promise<TestReceiver> {
  const started = await startReceiver(secrets);
  cleanup.push(() => started.close());
  return started;
}

/** A receiver and an endpoint pointing at it (subscribed to `events`, all by default). */
async function subscribed(h: Harness, scope: Scope, events?: string[]) {
  const hook = await receiver();
  const endpoint = await h.engine.webhooks.createEndpoint(scope, {
    url: hook.url,
    ...(events ? { enabled_events: events } : {}),
  });
  hook.secrets = [endpoint.secret];
  return { hook, endpoint };
}

async function allEvents(engine: Engine, scope: Scope): Promise<EventRecord[]> {
  const events: EventRecord[] = [];
  for (let page = await engine.webhooks.listEvents(scope, { limit: 100 }); ;) {
    events.push(...page.data);
    if (!page.has_more) return events;
    page = await engine.webhooks.listEvents(scope, {
      limit: 100,
      starting_after: page.data.at(-1)!.id,
    });
  }
}

/** Moves the virtual clock to each due retry in turn (up to `until`), draining at each. */
async function driveRetries(h: Harness, scope: Scope, until: Date): Promise<void> {
  await h.dispatcher.drain();
  for (let round = 0; round < 10_000; round += 1) {
    const next = await h.engine.webhooks.deliveries.nextAttemptAt(scope.environment);
    if (next === undefined || new Date(next) > until) break;
    if (new Date(next) > h.clock.now()) h.clock.advanceTo(new Date(next));
    await h.dispatcher.drain();
  }
  if (until > h.clock.now()) h.clock.advanceTo(until);
}

describe('webhook delivery to a real receiver', () => {
  it('delivers every event of a run, each verified by the standardwebhooks package, with the stored bytes', async () => {
    const h = harness();
    const { hook, endpoint } = await subscribed(h, test);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { run } = await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'k1',
    });
    await h.engine.advanceTestClock(test.account, 3600);
    const delivered = await h.dispatcher.drain();
    const events = await allEvents(h.engine, test);
    expect(events.length).toBeGreaterThan(5);
    expect(delivered).toBe(events.length);
    expect(hook.rejected).toEqual([]);
    expect(hook.received.map((item) => item.id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const item of hook.received) {
      const stored = await h.engine.webhooks.getEvent(test, item.id);
      expect(stored.delivery_status).toBe('delivered');
      expect({
        ...(JSON.parse(item.body) as object),
        delivery_status: 'delivered',
        pending_webhooks: 0,
      }).toEqual(stored);
      expect(item.event.run?.id).toBe(run.id);
    }
    const sequences = hook.received.map((item) => item.event.sequence!).sort((a, b) => a - b);
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    const [first] = await h.engine.webhooks.listDeliveries(test, events.at(-1)!.id);
    expect(first).toMatchObject({ status: 'delivered', attempt_count: 1, endpoint: endpoint.id });
    expect(first!.attempts[0]).toMatchObject({ attempt: 1, status: 204, error: null });
  });

  it('only sends the event types an endpoint subscribed to', async () => {
    const h = harness();
    const hook = await receiver();
    const endpoint = await h.engine.webhooks.createEndpoint(test, {
      url: hook.url,
      enabled_events: ['program_run.handoff.*', 'program_run.stage.started'],
    });
    hook.secrets = [endpoint.secret];
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'k',
    });
    await h.engine.advanceTestClock(test.account, 3600);
    await h.dispatcher.drain();
    const types = new Set(hook.received.map((item) => item.event.type));
    expect([...types].sort()).toEqual([
      'program_run.handoff.confirmed',
      'program_run.handoff.requested',
      'program_run.stage.started',
    ]);
    const created = await h.engine.webhooks.listEvents(test, { type: 'program_run.created' });
    expect(created.data[0]).toMatchObject({ delivery_status: 'none', pending_webhooks: 0 });
  });

  it('redelivers identical bytes with the same webhook-id, and keeps every attempt', async () => {
    const h = harness();
    const { hook, endpoint } = await subscribed(h, test);
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'k',
    });
    await h.dispatcher.drain();
    const target = hook.received[0]!;
    const deliveries = await h.engine.webhooks.redeliver(test, target.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 'pending', endpoint: endpoint.id });
    await h.dispatcher.drain();
    const copies = hook.received.filter((item) => item.id === target.id);
    expect(copies).toHaveLength(2);
    expect(copies[1]!.body).toBe(copies[0]!.body);
    const [after] = await h.engine.webhooks.listDeliveries(test, target.id);
    expect(after!.attempts.map((attempt) => attempt.status)).toEqual([204, 204]);
  });

  it('signs with both secrets during a rotation overlap, then only with the new one', async () => {
    const h = harness();
    const hook = await receiver();
    const endpoint = await h.engine.webhooks.createEndpoint(test, { url: hook.url });
    const rotated = await h.engine.webhooks.rotateSecret(test, endpoint.id, {
      overlap_seconds: 3600,
    });
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.secrets.map((secret) => secret.expires_at)).toEqual([
      null,
      '2026-03-02T10:00:00.000Z',
    ]);
    hook.secrets = [endpoint.secret]; // a receiver not yet updated still verifies
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'a',
    });
    await h.dispatcher.drain();
    expect(hook.rejected).toEqual([]);
    expect(hook.received[0]!.signature.split(' ')).toHaveLength(2);
    h.clock.advanceTo(new Date('2026-03-02T10:00:00.000Z'));
    const count = hook.received.length;
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'b',
    });
    await h.dispatcher.drain();
    expect(hook.received).toHaveLength(count); // the old secret no longer signs
    expect(hook.rejected.length).toBeGreaterThan(0);
    hook.secrets = [rotated.secret];
    const pending = (await h.engine.webhooks.listEvents(test, { delivery_status: 'pending' })).data;
    expect(pending.length).toBeGreaterThan(0);
    await driveRetries(h, test, new Date('2026-03-02T11:00:00.000Z'));
    expect(hook.received.at(-1)!.signature.split(' ')).toHaveLength(1);
    expect((await h.engine.webhooks.listEvents(test, { delivery_status: 'pending' })).data).toEqual(
      [],
    );
  });

  it('loses nothing when the receiver is down for a simulated day: every event arrives, in order by sequence, duplicates share webhook-id', async () => {
    const h = harness();
    const { hook, endpoint } = await subscribed(h, live);
    await hook.down();
    const runs: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const { run } = await h.engine.createRun(live, {
        scenario_id: 'wallet-delivery@v1',
        inputs,
        idempotency_key: `down-${index}`,
      });
      runs.push(run.id);
      // A live partner answer names the attempt it answers (the request's pik_ key).
      const requested = (await h.engine.listEvents(live, run.id)).find(
        (record) => record.type === 'program_run.handoff.requested',
      )!;
      await h.engine.signal(live, run.id, {
        kind: 'handoff',
        step: 'screen_destination',
        outcome: 'confirmed',
        reference: `scr-${index}`,
        data: {},
        idempotency_key: requested.data.idempotency_key as string,
      });
    }
    const dayLater = new Date(h.clock.now().getTime() + 24 * 3600 * 1000);
    await driveRetries(h, live, dayLater);
    expect(hook.received).toEqual([]);
    const pendingDuringOutage = await allEvents(h.engine, live);
    expect(pendingDuringOutage.every((event) => event.delivery_status === 'pending')).toBe(true);
    expect((await h.engine.webhooks.getEndpoint(live, endpoint.id)).status).toBe('enabled');

    await hook.up();
    // The receiver processes some deliveries but answers 500 the first time: they come again.
    const failedOnce = new Set<string>();
    hook.mode = (delivery) => {
      if (delivery.event.sequence === 2 && !failedOnce.has(delivery.id)) {
        failedOnce.add(delivery.id);
        return 500;
      }
      return 200;
    };
    await driveRetries(h, live, new Date(dayLater.getTime() + 2 * 24 * 3600 * 1000));
    const events = await allEvents(h.engine, live);
    expect(events.every((event) => event.delivery_status === 'delivered')).toBe(true);
    const unique = new Map(hook.seen.map((item) => [item.id, item]));
    expect([...unique.keys()].sort()).toEqual(events.map((event) => event.id).sort());
    expect(hook.seen.length).toBeGreaterThan(unique.size); // duplicates happened…
    for (const item of hook.seen) expect(item.body).toBe(unique.get(item.id)!.body); // …byte-identical
    for (const runId of runs) {
      const sequences = [...unique.values()]
        .filter((item) => item.event.run?.id === runId)
        .map((item) => item.event.sequence!)
        .sort((a, b) => a - b);
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    }
    expect((await h.engine.webhooks.getEndpoint(live, endpoint.id)).failing_since).toBeNull();
  });

  it('disables an endpoint that answers 410 Gone and tells the other endpoints', async () => {
    const h = harness();
    const { hook: gone, endpoint: goneEndpoint } = await subscribed(h, test);
    const { hook: watcher } = await subscribed(h, test, ['webhook_endpoint.disabled']);
    gone.mode = 410;
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'g',
    });
    await h.dispatcher.drain();
    const disabled = await h.engine.webhooks.getEndpoint(test, goneEndpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    expect(watcher.received.map((item) => item.event.type)).toEqual(['webhook_endpoint.disabled']);
    expect(JSON.parse(watcher.received[0]!.body)).toMatchObject({
      run: null,
      sequence: null,
      data: { endpoint: { id: goneEndpoint.id, url: gone.url }, reason: 'gone', status: 410 },
    });
    const failed = await h.engine.webhooks.listEvents(test, { delivery_status: 'failed' });
    expect(failed.data.length).toBeGreaterThan(0);
    await expect(
      h.engine.webhooks.redeliver(test, failed.data[0]!.id, { endpoint: goneEndpoint.id }),
    ).rejects.toMatchObject({ code: 'webhook_endpoint_disabled' });
    // Enabled again, a redelivery goes through.
    gone.mode = 200;
    await h.engine.webhooks.updateEndpoint(test, goneEndpoint.id, { status: 'enabled' });
    await h.engine.webhooks.redeliver(test, failed.data[0]!.id, { endpoint: goneEndpoint.id });
    await h.dispatcher.drain();
    expect(gone.received.map((item) => item.id)).toContain(failed.data[0]!.id);
  });

  it('disables an endpoint after a whole retry schedule of failures (consistent failure)', async () => {
    const h = harness();
    const { hook: broken, endpoint: brokenEndpoint } = await subscribed(h, live);
    const { hook: watcher } = await subscribed(h, live, ['webhook_endpoint.disabled']);
    broken.mode = 503;
    await h.engine.createRun(live, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'c',
    });
    const start = h.clock.now().getTime();
    await driveRetries(h, live, new Date(start + 2 * 24 * 3600 * 1000));
    expect((await h.engine.webhooks.getEndpoint(live, brokenEndpoint.id)).status).toBe('enabled');
    await driveRetries(h, live, new Date(start + 4 * 24 * 3600 * 1000));
    const disabled = await h.engine.webhooks.getEndpoint(live, brokenEndpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'consistent_failure' });
    expect(watcher.received.map((item) => item.event.type)).toEqual(['webhook_endpoint.disabled']);
    const [delivery] = await h.engine.webhooks.listDeliveries(
      live,
      (await allEvents(h.engine, live)).at(-1)!.id,
    );
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempt_count).toBe(10);
    expect(delivery!.attempts.every((attempt) => attempt.status === 503)).toBe(true);
    // From the first failure to the disabling: the whole live schedule, about three days
    // (jitter is centred here, so exactly the schedule's sum).
    const span = Date.parse(disabled.disabled_at!) - Date.parse(disabled.failing_since!);
    const scheduled = DEFAULT_RETRY_SCHEDULE.live.reduce((sum, seconds) => sum + seconds, 0);
    expect(span).toBe(scheduled * 1000);
    expect(scheduled / 86_400).toBeGreaterThan(2.9);
    expect(scheduled / 86_400).toBeLessThan(3.1);
  });

  it('keeps at most `concurrency` requests open and times out a receiver that hangs', async () => {
    const h = harness({ timeoutMs: 300, concurrency: 3 });
    const { hook } = await subscribed(h, test);
    hook.mode = 'hang';
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'h',
    });
    const started = Date.now();
    const attempts = await h.dispatcher.drain();
    expect(attempts).toBeGreaterThan(3);
    expect(hook.maxConcurrent).toBeLessThanOrEqual(3);
    expect(Date.now() - started).toBeLessThan(attempts * 300 + 2000);
    const [event] = (await h.engine.webhooks.listEvents(test, { limit: 1 })).data;
    const [delivery] = await h.engine.webhooks.listDeliveries(test, event!.id);
    expect(delivery!.attempts[0]!.error?.code).toBe('timeout');
    expect(delivery!.status).toBe('pending');
  });

  it('cancels deliveries owed to a deleted endpoint', async () => {
    const h = harness();
    const { hook, endpoint } = await subscribed(h, test);
    await h.engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'd',
    });
    await h.engine.webhooks.deleteEndpoint(test, endpoint.id);
    await h.dispatcher.drain();
    expect(hook.seen).toEqual([]);
    const events = await allEvents(h.engine, test);
    expect(events.every((event) => event.delivery_status === 'none')).toBe(true);
  });
});
