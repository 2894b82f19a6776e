// A party's `concurrency` holds across hosts sharing one PostgreSQL: the store's claim
// counts every host's leases. (1) Two real host processes on one schema with
// `concurrency: 3`: the partner stub never sees more than 3 calls of the party at once.
// (2) A property over random arrivals (how many runs, the gaps between them, the partner's
// delays, the limit): two engines in this process over two pools on one schema.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  generateApiKey,
  generateWebhookSecret,
  type Engine,
  type LifecycleRecord,
  type RunRecord,
  type Scope,
} from '@programrun/engine';
import { createHttpConnector } from '@programrun/webhooks';
import { auditHandoffs } from '../../webhooks/test/handoff-audit.js';
import { historyOf, WALLET_LIVE_INPUTS } from '../../webhooks/test/handoff-chaos.js';
import { startPartnerStub } from '../../webhooks/test/partner-stub.js';
import { createPostgresStore, type SqlStore } from '../src/index.js';
import { apiClient } from './support/api-client.js';
import { durableStoreSetup } from './support/durable-store-setup.js';
import { killAllHosts, startHost } from './support/host-process.js';
import { readRunHistory } from './support/run-history.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';
import { waitFor } from './support/wait-for.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const SCREENING = 'screen_destination';

afterAll(() => killAllHosts());

describe('concurrency of a party across hosts on one PostgreSQL', () => {
  it('two host processes with concurrency 3 never have more than 3 calls in flight', async () => {
    const setup = await durableStoreSetup('postgres');
    const key = generateApiKey('live');
    const secret = generateWebhookSecret();
    const partner = await startPartnerStub({
      secret,
      behaviour: (call) => ({ kind: 'answer', delayMs: 100 + ((call.index * 37) % 150) }),
    });
    try {
      const environment = {
        ...setup.environment,
        PROGRAMRUN_LIVE_KEY: key,
        PROGRAMRUN_PARTNER_URL: partner.url,
        PROGRAMRUN_PARTNER_SECRET: secret,
        PROGRAMRUN_PARTNER_CONCURRENCY: '3',
        PROGRAMRUN_HANDOFF_LEASE_MS: '5000',
        // Each host calls 2 at most: alone neither fills the party's 3, together they could
        // make 4, so the limit is held across hosts (and both hosts call), not by one host.
        PROGRAMRUN_HANDOFF_MAX_IN_FLIGHT: '2',
      };
      const hosts = await Promise.all(
        [0, 1].map(() => startHost(environment, 30_000, [], 'test/support/partner-host.ts')),
      );
      const clients = hosts.map((host) => apiClient(host.baseUrl, key));
      // 24 runs created at once, half on each host: 24 screening jobs queue together.
      const created = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          clients[index % 2]!.call<RunRecord>('POST', '/v1/program-runs', {
            body: {
              scenario_id: 'wallet-delivery@v1',
              inputs: { ...WALLET_LIVE_INPUTS, amount: `${100 + index}.00` },
            },
            idempotencyKey: `limit-${index}`,
          }),
        ),
      );
      expect(created.map((answer) => answer.status)).toEqual(created.map(() => 201));
      const runIds = created.map((answer) => answer.body.id);
      await waitFor(
        'every screening answered',
        async () => {
          for (const id of runIds) {
            const read = await clients[0]!.call<RunRecord>('GET', `/v1/program-runs/${id}`);
            if (read.body.awaiting?.step !== 'release_approval') return undefined;
          }
          return true;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      const histories = new Map<string, readonly LifecycleRecord[]>();
      for (const id of runIds) histories.set(id, (await readRunHistory(clients[1]!, id)).records);
      const audit = auditHandoffs(histories, partner.calls, { parties: ['chain_analytics'] });
      expect(audit.problems).toEqual([]);
      expect(partner.calls).toHaveLength(24);
      // The limit was reached, and never passed.
      expect(partner.maxInFlightOf('chain_analytics')).toBe(3);
      // Both hosts called (answers name the worker that settled them).
      const workers = new Set(
        [...histories.values()].flatMap((records) =>
          records
            .filter((record) => record.type === 'program_run.handoff.confirmed')
            .map((record) =>
              JSON.stringify((record.data as { answered_by?: unknown }).answered_by),
            ),
        ),
      );
      console.info(`two hosts, concurrency 3: answers settled by ${workers.size} workers`);
      expect(workers.size).toBe(2);
      expect(hosts.map((host) => host.errors()).join('')).toBe('');
    } finally {
      await killAllHosts();
      await partner.close();
      await setup.dispose();
    }
  }, 90_000);

  it('holds the limit over random arrivals, two engines on two pools (property)', async () => {
    const schema = freshSchema();
    const stores: SqlStore[] = [];
    const secret = generateWebhookSecret();
    const delays: number[] = [];
    const partner = await startPartnerStub({
      secret,
      behaviour: (call) => ({ kind: 'answer', delayMs: delays[call.index % delays.length] ?? 0 }),
    });
    const connector = createHttpConnector({ url: partner.url, secret, allowLoopback: true });
    const scope: Scope = { account: 'acct_arrivals', environment: 'live' };
    let iteration = 0;
    // Iterations whose arrivals filled the limit: the property was tested, not just met.
    let filled = 0;
    try {
      for (let index = 0; index < 2; index += 1) {
        stores.push(
          await createPostgresStore({
            connectionString: TEST_DATABASE_URL,
            schema,
            maxConnections: 4,
          }),
        );
      }
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            concurrency: fc.integer({ min: 1, max: 4 }),
            gaps: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 10 }),
            delays: fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 10 }),
          }),
          async ({ concurrency, gaps, delays: partnerDelays }) => {
            iteration += 1;
            delays.splice(0, delays.length, ...partnerDelays);
            await partner.idle();
            partner.resetMaxInFlight();
            const firstCall = partner.calls.length;
            const engines: Engine[] = stores.map((store) =>
              createEngine({
                store,
                scenarios,
                connectors: { chain_analytics: { connector, concurrency } },
                handoffs: { pollIntervalMs: 20, retry: { initialMs: 20, maxMs: 100 } },
              }),
            );
            const workers = engines.map((engine) => engine.startHandoffWorkers());
            try {
              const runIds: string[] = [];
              for (const [index, gap] of gaps.entries()) {
                const { run } = await engines[index % 2]!.createRun(scope, {
                  scenario_id: 'wallet-delivery@v1',
                  inputs: { ...WALLET_LIVE_INPUTS, amount: `${100 + index}.00` },
                  idempotency_key: `arrival-${iteration}-${index}`,
                });
                runIds.push(run.id);
                await new Promise((resolve) => setTimeout(resolve, gap));
              }
              await waitFor(
                'every screening answered',
                async () => {
                  const runs = await Promise.all(runIds.map((id) => engines[0]!.getRun(scope, id)));
                  return runs.every((run) => run.awaiting?.step === 'release_approval')
                    ? true
                    : undefined;
                },
                { timeoutMs: 20_000, intervalMs: 20 },
              );
              const histories = new Map<string, readonly LifecycleRecord[]>();
              for (const id of runIds) histories.set(id, await historyOf(engines[1]!, scope, id));
              const calls = partner.calls.slice(firstCall);
              const audit = auditHandoffs(histories, calls, { parties: ['chain_analytics'] });
              expect(audit.problems).toEqual([]);
              expect(calls).toHaveLength(runIds.length);
              expect(partner.maxInFlightOf('chain_analytics')).toBeLessThanOrEqual(concurrency);
              if (partner.maxInFlightOf('chain_analytics') === concurrency) filled += 1;
              expect(
                audit.handoffs.filter(
                  (handoff) => handoff.step === SCREENING && handoff.answers === 1,
                ),
              ).toHaveLength(runIds.length);
            } finally {
              await Promise.all(workers.map((worker) => worker.stop()));
            }
          },
        ),
        { numRuns: 10 },
      );
      console.info(`random arrivals: ${filled} of ${iteration} iterations reached the limit`);
    } finally {
      await partner.close();
      for (const store of stores) await store.close();
      await dropSchema(schema);
    }
  }, 90_000);
});
