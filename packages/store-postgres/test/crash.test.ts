// Crash safety, on PGlite, embedded PostgreSQL (the host's own server outlives the host and
// is stopped by the next life) and PostgreSQL: a real host process under create/signal load
// is killed with SIGKILL at random moments, several rounds, and restarted. Afterwards:
// every run a client got a 2xx for is present and intact (hash chain verifies, every
// acknowledged chain head is in it), no Idempotency-Key maps to two runs, every due timer
// fired (runs finish, no timer left), and every outbox event reached the receiver.
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey, type LifecycleRecord } from '@programrun/engine';
import { apiClient, listAll, type ApiClient } from './support/api-client.js';
import { runCreateSignalLoad } from './support/create-signal-load.js';
import { durableStoreSetup, type DurableStoreKind } from './support/durable-store-setup.js';
import { historyProblems } from './support/history-invariants.js';
import { killAllHosts, startHost, type HostProcess } from './support/host-process.js';
import { createLedger } from './support/load-ledger.js';
import { readRunHistory, type RunHistory } from './support/run-history.js';
import { seededRandom } from './support/seeded-random.js';
import { answerEveryKey, releaseUntilCompleted } from './support/settle-load.js';
import { waitFor } from './support/wait-for.js';
import { startReceiver } from '../../webhooks/test/receiver.js';

const ROUNDS = 3;
const WORKERS = 6;
const key = generateApiKey('test');

afterAll(() => killAllHosts());

const STORES: readonly { kind: DurableStoreKind }[] = [
  { kind: 'pglite' },
  { kind: 'embedded' },
  { kind: 'postgres' },
];

describe.each(STORES)('a host killed with SIGKILL under load ($kind)', ({ kind }) => {
  it(`keeps every acknowledged write through ${ROUNDS} SIGKILL rounds`, async () => {
    const random = seededRandom();
    const setup = await durableStoreSetup(kind);
    const receiver = await startReceiver();
    const ledger = createLedger();
    const lives: HostProcess[] = [];
    const start = async (): Promise<ApiClient> => {
      const host = await startHost({ ...setup.environment, PROGRAMRUN_TEST_KEY: key });
      lives.push(host);
      return apiClient(host.baseUrl, key);
    };
    const hostErrors = () => lives.map((life) => life.errors()).join('');
    const context = () => `seed ${random.seed}; host stderr:\n${hostErrors()}`;
    try {
      let client = await start();
      const endpoint = await client.call<{ secret: string }>('POST', '/v1/webhook-endpoints', {
        body: { url: receiver.url },
        idempotencyKey: 'crash-endpoint',
      });
      expect(endpoint.status).toBe(201);
      receiver.secrets = [endpoint.body.secret];

      const killDelays: number[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        if (round > 1) client = await start();
        let stopped = false;
        const load = runCreateSignalLoad({
          client,
          ledger,
          random,
          workers: WORKERS,
          keyPrefix: `${kind}-r${round}`,
          stopped: () => stopped,
        });
        const delay = random.integer(300, 2_000);
        killDelays.push(delay);
        await new Promise((resolve) => setTimeout(resolve, delay));
        stopped = true;
        await lives.at(-1)!.crash();
        await load;
      }
      expect(ledger.tally.get('2xx') ?? 0, context()).toBeGreaterThan(0);

      // Last life: every key answers, every run is released and finishes on its own.
      client = await start();
      await answerEveryKey(client, ledger);
      const runByKey = new Map<string, string>();
      for (const [idempotencyKey, runs] of ledger.runsByKey) {
        expect([...runs], `Idempotency-Key ${idempotencyKey}: ${context()}`).toHaveLength(1);
        runByKey.set(idempotencyKey, [...runs][0]!);
      }
      expect(runByKey.size).toBe(ledger.bodies.size);
      for (const [idempotencyKey, count] of ledger.creations) {
        expect(count, `creations answered for ${idempotencyKey}`).toBe(1);
      }
      const listed = await listAll<{ id: string }>(client, '/v1/program-runs');
      // One run per key, and no run that no key answered with (a second run of a key).
      expect(new Set(listed.map((run) => run.id))).toEqual(new Set(runByKey.values()));
      expect(listed).toHaveLength(runByKey.size);
      await releaseUntilCompleted(client, ledger, [...runByKey.values()]);
      expect(ledger.unexpected, context()).toEqual([]);

      const histories: RunHistory[] = [];
      for (const [idempotencyKey, runId] of runByKey) {
        const history = await readRunHistory(client, runId);
        expect(history.run.inputs).toEqual(ledger.bodies.get(idempotencyKey)!.inputs);
        histories.push(history);
      }
      const problems = histories.flatMap((history) =>
        historyProblems(history, ledger.heads.get(history.run.id)),
      );
      expect(problems, context()).toEqual([]);

      // Every record is an outbox event, and every event reached the receiver.
      const records: LifecycleRecord[] = histories.flatMap((history) => [...history.records]);
      const events = await listAll<{ id: string }>(client, '/v1/events');
      expect(new Set(events.map((event) => event.id))).toEqual(
        new Set(records.map((record) => record.id)),
      );
      await waitFor(
        `${records.length} events delivered`,
        () => {
          const received = new Set(receiver.received.map((delivery) => delivery.id));
          return Promise.resolve(records.every((record) => received.has(record.id)) || undefined);
        },
        { timeoutMs: 30_000 },
      );
      expect(receiver.rejected).toEqual([]);
      // The receiver answers before the dispatcher records the delivery: wait for the last
      // ones to be recorded, then nothing may be pending or failed.
      const left = async (status: string) =>
        (
          await client.call<{ data: unknown[] }>(
            'GET',
            `/v1/events?delivery_status=${status}&limit=1`,
          )
        ).body.data;
      await waitFor(
        'every delivery recorded',
        async () => ((await left('pending')).length === 0 ? true : undefined),
        { timeoutMs: 30_000 },
      );
      for (const status of ['pending', 'failed'])
        expect(await left(status), `${status} deliveries`).toEqual([]);

      // Stopped cleanly, the store itself holds no timer: every one fired or was settled.
      await lives.at(-1)!.stop();
      // No life of the host logged a scheduler or dispatcher failure.
      expect(hostErrors()).toBe('');
      const store = await setup.open();
      try {
        const timer = await store.transaction((tx) => tx.nextTimer({ environment: 'test' }));
        expect(timer).toBeUndefined();
      } finally {
        await store.close();
      }
      console.info(
        `${kind}: ${ROUNDS} kills after ${killDelays.join(', ')} ms; ${runByKey.size} runs, ` +
          `${records.length} events (${receiver.received.length} deliveries); answers ` +
          JSON.stringify(Object.fromEntries(ledger.tally)) +
          `; seed ${random.seed}`,
      );
    } finally {
      await killAllHosts();
      await receiver.close();
      await setup.dispose();
    }
  }, 150_000);
});
