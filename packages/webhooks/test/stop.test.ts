// Stopping the dispatcher: it claims nothing more, gives its requests in flight a grace,
// then aborts them and gives their deliveries' leases back, recording no attempt for them,
// so another dispatcher delivers them at once rather than when the leases end.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createEngine,
  createMemoryStore,
  type Scope,
  type StoreV1,
  type WebhookDeliveryRow,
} from '@programrun/engine';
import { createWebhookDispatcher } from '../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from '../../engine/test/scenarios.js';
import { startReceiver } from './receiver.js';

const test: Scope = { account: 'acct_stop', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every delivery of the scope's events, with its attempts. */
async function deliveriesOf(store: StoreV1, engine: ReturnType<typeof createEngine>) {
  const events = await engine.webhooks.listEvents(test, { limit: 100 });
  return store.transaction(async (tx) => {
    const rows: { delivery: WebhookDeliveryRow; attempts: number }[] = [];
    for (const event of events.data)
      for (const delivery of await tx.listWebhookDeliveries(test, event.id))
        rows.push({ delivery, attempts: (await tx.listWebhookAttempts(delivery.id)).length });
    return rows;
  });
}

describe('stopping the webhook dispatcher', () => {
  it('aborts the requests still in flight after the grace and frees their deliveries', async () => {
    const store = createMemoryStore();
    const engine = createEngine({ store, scenarios, webhooks: { allowLoopback: true } });
    const hook = await startReceiver();
    cleanup.push(() => hook.close());
    hook.mode = 'hang';
    const endpoint = await engine.webhooks.createEndpoint(test, { url: hook.url });
    hook.secrets = [endpoint.secret];
    await engine.createRun(test, { scenario_id: 'wallet-delivery@v1', inputs: WALLET_INPUTS });

    const dispatcher = createWebhookDispatcher(engine, { timeoutMs: 30_000 });
    dispatcher.start();
    for (let wait = 0; wait < 200 && hook.seen.length === 0; wait += 1) await sleep(10);
    expect(hook.seen.length).toBeGreaterThan(0);
    const held = (await deliveriesOf(store, engine)).filter((row) => row.delivery.lease_until);
    expect(held.length).toBeGreaterThan(0);

    const began = performance.now();
    await dispatcher.stop({ graceMs: 50 });
    // Far sooner than the request timeout (30 s) or the lease (90 s).
    expect(performance.now() - began).toBeLessThan(2_000);
    const after = await deliveriesOf(store, engine);
    expect(after.length).toBeGreaterThan(0);
    for (const { delivery, attempts } of after) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 0, lease_until: null });
      expect(attempts).toBe(0);
    }

    // Another dispatcher delivers them at once.
    hook.mode = 204;
    const next = createWebhookDispatcher(engine);
    cleanup.push(() => next.stop());
    expect(await next.drain()).toBe(after.length);
    expect(hook.received).toHaveLength(after.length);
  });

  it('lets requests that finish within the grace settle as usual', async () => {
    const store = createMemoryStore();
    const engine = createEngine({ store, scenarios, webhooks: { allowLoopback: true } });
    const hook = await startReceiver();
    cleanup.push(() => hook.close());
    const endpoint = await engine.webhooks.createEndpoint(test, { url: hook.url });
    hook.secrets = [endpoint.secret];
    await engine.createRun(test, { scenario_id: 'wallet-delivery@v1', inputs: WALLET_INPUTS });
    const dispatcher = createWebhookDispatcher(engine);
    dispatcher.start();
    for (let wait = 0; wait < 200 && hook.received.length === 0; wait += 1) await sleep(10);
    await dispatcher.stop({ graceMs: 5_000 });
    const rows = await deliveriesOf(store, engine);
    for (const { delivery } of rows) expect(delivery.lease_until).toBeNull();
    expect(rows.filter((row) => row.delivery.status === 'delivered').length).toBe(
      hook.received.length,
    );
  });
});
