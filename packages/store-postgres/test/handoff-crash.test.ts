// Crash safety of handoff jobs, on PGlite and PostgreSQL: a host process whose workers call
// a slow partner (the partner stub on 127.0.0.1, in this process) is killed with SIGKILL
// while calls are in flight, several rounds, and restarted. The next life claims the
// jobs again once the dead host's leases end. Afterwards every run finished, every job is
// closed, no handoff was applied twice, and every call (first ones and retries) carried
// its handoff's pik_ key and a signature the partner verified with `standardwebhooks`.
import { afterAll, describe, expect, it } from 'vitest';
import {
  generateApiKey,
  generateWebhookSecret,
  type LifecycleRecord,
  type RunRecord,
} from '@programrun/engine';
import { auditHandoffs } from '../../webhooks/test/handoff-audit.js';
import { startPartnerStub, type PartnerCall } from '../../webhooks/test/partner-stub.js';
import { apiClient, type ApiClient } from './support/api-client.js';
import { durableStoreSetup, type DurableStoreKind } from './support/durable-store-setup.js';
import { killAllHosts, startHost, type HostProcess } from './support/host-process.js';
import { readRunHistory } from './support/run-history.js';
import { seededRandom } from './support/seeded-random.js';
import { waitFor } from './support/wait-for.js';

const ROUNDS = 3;
const RUNS_PER_ROUND = 4;
const PARTNER_HOST = 'test/support/partner-host.ts';
const RELEASE = { step: 'release_approval', decision: 'approve', approver: 'ops:treasury' };
const WALLET = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

afterAll(() => killAllHosts());

/** Approves every listed run that waits on its release; returns the runs as read. */
async function approveWaiting(client: ApiClient, runIds: readonly string[]): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (const id of runIds) {
    const read = await client.call<RunRecord>('GET', `/v1/program-runs/${id}`);
    if (read.status !== 200) continue;
    runs.push(read.body);
    if (read.body.awaiting?.step === RELEASE.step) {
      await client.call('POST', `/v1/program-runs/${id}/approvals`, { body: RELEASE });
    }
  }
  return runs;
}

describe.each<{ kind: DurableStoreKind }>([{ kind: 'pglite' }, { kind: 'postgres' }])(
  'a host killed with SIGKILL in the middle of partner calls ($kind)',
  ({ kind }) => {
    it(`finishes every handoff once through ${ROUNDS} SIGKILL rounds`, async () => {
      const random = seededRandom();
      const setup = await durableStoreSetup(kind);
      const key = generateApiKey('live');
      const secret = generateWebhookSecret();
      const current: { client?: ApiClient } = {};
      // The partner answers the first call of a key slowly (so kills land mid-call) or
      // accepts it and calls back over HTTP, to whichever host is alive.
      const partner = await startPartnerStub({
        secret,
        behaviour: (call: PartnerCall) => {
          if (random.next() < 0.2)
            return { kind: 'accept', callbackAfterMs: random.integer(0, 200) };
          return call.callOfKey === 1
            ? { kind: 'answer', delayMs: random.integer(400, 1_000) }
            : { kind: 'answer', delayMs: random.integer(20, 200) };
        },
        callback: async (request, answer) => {
          const body = { ...answer, idempotency_key: request.idempotency_key };
          const path = `/v1/program-runs/${request.run_id}/handoffs/${request.step}`;
          await waitFor(
            `callback of ${request.idempotency_key}`,
            async () => {
              const sent = await current.client?.call('POST', path, { body });
              if (!sent || sent.status === 0 || sent.status >= 500) return undefined;
              // A second callback of an answered handoff (a retried call accepted again).
              const code = (sent.body as { code?: string }).code;
              if (sent.status === 409 && code === 'step_not_awaiting') return true;
              if (sent.status !== 200) {
                throw new Error(`callback ${sent.status}: ${JSON.stringify(sent.body)}`);
              }
              return true;
            },
            { timeoutMs: 60_000, intervalMs: 100 },
          );
        },
      });
      const lives: HostProcess[] = [];
      const start = async (): Promise<ApiClient> => {
        const host = await startHost(
          {
            ...setup.environment,
            PROGRAMRUN_LIVE_KEY: key,
            PROGRAMRUN_PARTNER_URL: partner.url,
            PROGRAMRUN_PARTNER_SECRET: secret,
            PROGRAMRUN_HANDOFF_LEASE_MS: '1500',
          },
          30_000,
          [],
          PARTNER_HOST,
        );
        lives.push(host);
        current.client = apiClient(host.baseUrl, key);
        return current.client;
      };
      const hostErrors = () => lives.map((life) => life.errors()).join('');
      const context = () => `seed ${random.seed}; host stderr:\n${hostErrors()}`;
      const runIds: string[] = [];
      try {
        const killedMidCall: number[] = [];
        for (let round = 1; round <= ROUNDS; round += 1) {
          const client = await start();
          await approveWaiting(client, runIds);
          for (let index = 0; index < RUNS_PER_ROUND; index += 1) {
            const created = await client.call<RunRecord>('POST', '/v1/program-runs', {
              body: {
                scenario_id: 'wallet-delivery@v1',
                inputs: { ...WALLET, amount: `${100 + runIds.length}.00` },
              },
              idempotencyKey: `crash-${kind}-${round}-${index}`,
            });
            expect(created.status, context()).toBe(201);
            runIds.push(created.body.id);
          }
          // Kill while the partner holds calls of this life.
          const callsBefore = partner.calls.length;
          await waitFor(
            'a partner call in flight',
            () =>
              Promise.resolve(
                partner.inFlight > 0 && partner.calls.length > callsBefore ? true : undefined,
              ),
            { timeoutMs: 10_000, intervalMs: 10 },
          );
          await new Promise((resolve) => setTimeout(resolve, random.integer(0, 300)));
          killedMidCall.push(partner.inFlight);
          await lives.at(-1)!.crash();
        }
        // The calls a dead host held were cut: the partner saw them end without an answer read.
        expect(
          killedMidCall.every((count) => count > 0),
          context(),
        ).toBe(true);

        // Last life: leases end, jobs are claimed again, releases approved, runs finish.
        const client = await start();
        await waitFor(
          `${runIds.length} runs completed`,
          async () => {
            const runs = await approveWaiting(client, runIds);
            return runs.length === runIds.length && runs.every((run) => run.status === 'completed')
              ? true
              : undefined;
          },
          { timeoutMs: 45_000, intervalMs: 100 },
        );
        await partner.idle();

        const histories = new Map<string, readonly LifecycleRecord[]>();
        for (const id of runIds) histories.set(id, (await readRunHistory(client, id)).records);
        const audit = auditHandoffs(histories, partner.calls, {
          parties: ['chain_analytics', 'custodian'],
        });
        expect(audit.problems, context()).toEqual([]);
        expect(audit.handoffs).toHaveLength(runIds.length * 2);
        expect(
          audit.handoffs.every((handoff) => handoff.answers === 1),
          context(),
        ).toBe(true);
        expect(partner.rejected).toEqual([]);
        expect(
          partner.callbacks.every((callback) => callback.result === 'ok'),
          context(),
        ).toBe(true);
        // Calls cut by the kills were made again, with the same key (the audit checked the key).
        const retried = audit.handoffs.filter(
          (handoff) => partner.callsOf(handoff.idempotencyKey).length > 1,
        );
        expect(retried.length, context()).toBeGreaterThan(0);

        await lives.at(-1)!.stop();
        expect(hostErrors()).toBe('');
        const store = await setup.open();
        try {
          const open = await store.transaction(async (tx) => {
            const jobs = await Promise.all(runIds.map((id) => tx.handoffJobsOfRun(id)));
            return jobs.flat().filter((job) => job.status !== 'closed');
          });
          expect(open, context()).toEqual([]);
        } finally {
          await store.close();
        }
        console.info(
          `${kind}: ${ROUNDS} kills with ${killedMidCall.join(', ')} calls in flight; ` +
            `${runIds.length} runs, ${partner.calls.length} partner calls, ` +
            `${retried.length} handoffs called again after a kill; seed ${random.seed}`,
        );
      } finally {
        await killAllHosts();
        await partner.close();
        await setup.dispose();
      }
    }, 120_000);
  },
);
