// Fair handoff claims on PostgreSQL: account A queues 1,000 handoffs to one partner
// limited to 4 calls at once, then account B queues one. The claim lets accounts take
// turns, so B's call starts no later than one call's duration after the first of A's
// calls in flight ends (durations measured at the partner, so the bound follows the
// machine's speed rather than a fixed number).
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, generateWebhookSecret, type Scope } from '@programrun/engine';
import { createHttpConnector } from '@programrun/webhooks';
import { WALLET_LIVE_INPUTS } from '../../webhooks/test/handoff-chaos.js';
import { startPartnerStub } from '../../webhooks/test/partner-stub.js';
import { createTestPostgresStore } from './support/test-database.js';
import { waitFor } from './support/wait-for.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const QUEUED = 1_000;
const CONCURRENCY = 4;
const CALL_MS = 150;
const A: Scope = { account: 'acct_backlog', environment: 'live' };
const B: Scope = { account: 'acct_single', environment: 'live' };

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('fair handoff claims on PostgreSQL', () => {
  it(`calls B's one handoff within one call of a slot freeing behind A's ${QUEUED}`, async () => {
    const store = await createTestPostgresStore({ maxConnections: 6 });
    cleanup.push(() => store.close());
    const secret = generateWebhookSecret();
    const partner = await startPartnerStub({
      secret,
      behaviour: () => ({ kind: 'answer', delayMs: CALL_MS }),
    });
    cleanup.push(() => partner.close());
    const connector = createHttpConnector({ url: partner.url, secret, allowLoopback: true });
    const engine = createEngine({
      store,
      scenarios,
      connectors: { chain_analytics: { connector, concurrency: CONCURRENCY } },
      handoffs: { pollIntervalMs: 25 },
    });
    // A's backlog, 100 runs per unit of work (each run requests its screening at once).
    const queueing = performance.now();
    for (let batch = 0; batch < QUEUED / 100; batch += 1) {
      await engine.unitOfWork(A, async (uow) => {
        for (let index = 0; index < 100; index += 1) {
          const number = batch * 100 + index;
          await uow.createRun({
            scenario_id: 'wallet-delivery@v1',
            inputs: { ...WALLET_LIVE_INPUTS, amount: `${100 + (number % 2000)}.00` },
            idempotency_key: `backlog-${number}`,
          });
        }
      });
    }
    const workers = engine.startHandoffWorkers();
    cleanup.push(() => workers.stop());
    // A's slots are all taken and most of its backlog waits.
    await waitFor('A at its limit', () =>
      Promise.resolve(partner.inFlight === CONCURRENCY ? true : undefined),
    );
    console.info(`fairness: A's backlog queued in ${(performance.now() - queueing).toFixed(0)} ms`);
    const [loadA] = await engine.partners(A);
    expect(loadA).toMatchObject({ party: 'chain_analytics', in_flight: CONCURRENCY });
    expect(loadA!.queued).toBeGreaterThan(QUEUED / 2);

    const { run } = await engine.createRun(B, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_LIVE_INPUTS,
      idempotency_key: 'single',
    });
    const queuedAt = performance.now();
    const callOfB = await waitFor(
      "B's call",
      () => Promise.resolve(partner.calls.find((call) => call.request.run_id === run.id)),
      { timeoutMs: 10_000, intervalMs: 5 },
    );
    // B's call, and every call open when B queued, have ended (A's backlog goes on: with
    // slots freed as answers come, the partner is never idle until it is drained).
    await waitFor(
      'the calls to measure ended',
      () =>
        Promise.resolve(
          partner.calls.every(
            (call) => call.startedAt > callOfB.startedAt || call.finishedAt !== undefined,
          ) || undefined,
        ),
      { timeoutMs: 10_000, intervalMs: 5 },
    );

    const callsOfA = partner.calls.filter((call) => call.request.account === A.account);
    // The first slot to free after B queued: the earliest end of A's calls open then, or
    // B's queueing itself when fewer than the limit were open (A's calls end and start in
    // waves: a slot whose answer came is free until its next call starts).
    const openThen = callsOfA.filter(
      (call) => call.startedAt <= queuedAt && (call.finishedAt ?? Infinity) >= queuedAt,
    );
    const firstFree =
      openThen.length < CONCURRENCY
        ? queuedAt
        : Math.min(...openThen.map((call) => call.finishedAt!));
    const durations = callsOfA
      .filter((call) => call.finishedAt !== undefined)
      .map((call) => call.finishedAt! - call.startedAt);
    const callDuration = Math.max(...durations);
    const wait = callOfB.startedAt - Math.max(firstFree, queuedAt);
    // A's calls started after B queued and before B's call: at most the slots that freed
    // before B's turn came (B takes the first free slot).
    const overtaking = callsOfA.filter(
      (call) => call.startedAt > queuedAt && call.startedAt < callOfB.startedAt,
    ).length;
    console.info(
      `fairness: B called ${wait.toFixed(1)} ms after the first slot freed ` +
        `(calls take ${Math.min(...durations).toFixed(0)}–${callDuration.toFixed(0)} ms); ` +
        `${overtaking} of A's calls started in between; ${callsOfA.length} A calls so far`,
    );
    expect(Number.isFinite(firstFree)).toBe(true);
    expect(wait).toBeLessThanOrEqual(callDuration);
    expect(overtaking).toBeLessThan(CONCURRENCY);
  }, 90_000);
});
