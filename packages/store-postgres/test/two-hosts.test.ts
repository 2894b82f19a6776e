// Two real host processes on one PostgreSQL schema, each with its own scheduler and
// webhook dispatcher: duplicate creations racing on both make one run; signals racing on
// one run are each applied once, in an order a single host could have produced, with no
// lost update; timers claimed by both schedulers fire once.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createAccounts, createEngine, generateApiKey, type RunRecord } from '@programrun/engine';
import { apiClient, listAll, type ApiAnswer, type ApiClient } from './support/api-client.js';
import { RELEASE_APPROVAL, walletBody } from './support/create-signal-load.js';
import { durableStoreSetup, type DurableStoreSetup } from './support/durable-store-setup.js';
import { historyProblems } from './support/history-invariants.js';
import { killAllHosts, startHost, type HostProcess } from './support/host-process.js';
import {
  SETTLED_STATUS,
  replayQuorum,
  type RaceSignal,
  type SentSignal,
} from './support/quorum-oracle.js';
import { readRunHistory } from './support/run-history.js';
import {
  createRunAwaiting,
  MAKER,
  payoutAwaitingRelease,
  waitForRun,
} from './support/run-driver.js';

const key = generateApiKey('test');
// Approvals count authenticated actors: each approver of these races decides with a key
// of its own, whose actor is its name.
const APPROVERS = [
  'ops:c1',
  'ops:c2',
  'ops:c3',
  'ops:c4',
  'ops:c5',
  'ops:c6',
  'ops:ana',
  'ops:ben',
  'ops:cy',
  MAKER,
  RELEASE_APPROVAL.approver,
];
const PAYOUT_RELEASE = { step: 'release_approval', quorum: 2, excluded: [MAKER] } as const;
const WALLET_RELEASE = { step: 'release_approval', quorum: 1, excluded: [] } as const;

let setup: DurableStoreSetup | undefined;
let hosts: HostProcess[] = [];
let clients: ApiClient[] = [];
const approverKeys = new Map<string, string>();

/** A client of host `host` (0 or 1) authenticating as `actor`. */
function actorClient(host: number, actor: string): ApiClient {
  return apiClient(hosts[host]!.baseUrl, approverKeys.get(actor)!);
}

const is2xx = (answer: ApiAnswer<unknown>) => answer.status >= 200 && answer.status < 300;
const runCount = async () => (await listAll(clients[0]!, '/v1/program-runs')).length;
const codeOf = (answer: ApiAnswer<unknown>) => (answer.body as { code?: string }).code;

/** Sends one signal to host `host` (0 or 1) and keeps the status it got. */
async function sendSignal(
  runId: string,
  host: number,
  signal: RaceSignal,
  step: string,
): Promise<SentSignal> {
  if (signal.kind === 'cancel') {
    const answer = await clients[host]!.call('POST', `/v1/program-runs/${runId}/cancel`, {
      body: {},
    });
    return { kind: 'cancel', status: answer.status };
  }
  const answer = await actorClient(host, signal.approver).call(
    'POST',
    `/v1/program-runs/${runId}/approvals`,
    {
      body: { step, decision: signal.decision, approver: signal.approver },
    },
  );
  return { ...signal, status: answer.status };
}

/** Replays the race against the quorum model, waits for the run to settle, checks it all. */
async function expectSerializable(
  runId: string,
  sent: readonly SentSignal[],
  rules: typeof PAYOUT_RELEASE | typeof WALLET_RELEASE,
) {
  const early = replayQuorum((await readRunHistory(clients[0]!, runId)).records, sent, rules);
  const settled = SETTLED_STATUS[early.outcome];
  await waitForRun(clients[1]!, runId, (run) => run.status === settled);
  const history = await readRunHistory(clients[1]!, runId);
  const { outcome, problems } = replayQuorum(history.records, sent, rules);
  expect(problems).toEqual([]);
  expect(outcome).toBe(early.outcome);
  expect(historyProblems(history)).toEqual([]);
  return { outcome, history };
}

describe('two hosts on one PostgreSQL schema', () => {
  beforeAll(async () => {
    setup = await durableStoreSetup('postgres');
    // Both start at once: both migrate the fresh schema and register the same key.
    hosts = await Promise.all(
      [0, 1].map(() => startHost({ ...setup!.environment, PROGRAMRUN_TEST_KEY: key })),
    );
    clients = hosts.map((host) => apiClient(host.baseUrl, key));
    const store = await setup.open();
    try {
      const { apiKeys } = createAccounts({ store });
      for (const actor of APPROVERS) {
        const created = await apiKeys.create({
          account: 'acct_durability',
          environment: 'test',
          actor,
        });
        approverKeys.set(actor, created.secret);
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  afterEach(() => {
    // Neither host's scheduler or dispatcher failed (a conflict they could not resolve).
    expect(hosts.map((host) => host.errors()).join('')).toBe('');
  });

  afterAll(async () => {
    await killAllHosts();
    await setup?.dispose();
  });

  it('concurrent duplicate creates split across the hosts make one run per key', async () => {
    const before = await runCount();
    const keys = Array.from({ length: 16 }, (_, index) => `dup-${index}-${Date.now()}`);
    const answers = await Promise.all(
      keys.flatMap((idempotencyKey, keyIndex) =>
        Array.from({ length: 6 }, (_, index) =>
          clients[index % 2]!.call<RunRecord>('POST', '/v1/program-runs', {
            body: walletBody(keyIndex),
            idempotencyKey,
          }).then((answer) => ({ idempotencyKey, answer })),
        ),
      ),
    );
    const runIds = new Map<string, string>();
    for (const idempotencyKey of keys) {
      const mine = answers.filter((item) => item.idempotencyKey === idempotencyKey);
      for (const { answer } of mine) {
        // A racing duplicate waits for the first commit (the key's lock), then replays it.
        expect([200, 201]).toContain(answer.status);
      }
      const ids = new Set(
        mine.filter(({ answer }) => is2xx(answer)).map(({ answer }) => answer.body.id),
      );
      expect(ids.size).toBe(1);
      // One creation; the other 2xx found its run (200) or replayed the stored 201.
      expect(mine.filter(({ answer }) => answer.status === 201 && !answer.replayed)).toHaveLength(
        1,
      );
      runIds.set(idempotencyKey, [...ids][0]!);
    }
    // Retries on either host answer the same run; another body with the key is refused.
    for (const [keyIndex, idempotencyKey] of keys.entries()) {
      for (const client of clients) {
        const retry = await client.call<RunRecord>('POST', '/v1/program-runs', {
          body: walletBody(keyIndex),
          idempotencyKey,
        });
        expect(retry.body.id).toBe(runIds.get(idempotencyKey));
        const other = await client.call('POST', '/v1/program-runs', {
          body: walletBody(keyIndex + 100),
          idempotencyKey,
        });
        expect(other.status).toBe(422);
        expect(codeOf(other)).toBe('idempotency_key_reused');
      }
    }
    expect(await runCount()).toBe(before + keys.length);
  });

  it('without the HTTP layer, two engines on their own pools keep one run per key', async () => {
    // POST /v1/program-runs serializes a key on its Idempotency-Key lock; engine.createRun
    // called directly has no such lock, so every duplicate reaches the runs table: its
    // unique key and the engine's retry must decide, across connection pools.
    const [scenarios, stores] = await Promise.all([
      loadCatalogue(fileURLToPath(new URL('../../../scenarios/', import.meta.url))),
      Promise.all([setup!.open(), setup!.open()]),
    ]);
    try {
      const engines = stores.map((store) =>
        createEngine({ store, scenarios, sandbox: { responseDelayMs: 10_000 } }),
      );
      const scope = { account: 'acct_durability', environment: 'test' } as const;
      const before = await runCount();
      const keys = Array.from({ length: 16 }, (_, index) => `engine-${index}-${Date.now()}`);
      const results = await Promise.all(
        keys.flatMap((idempotencyKey, keyIndex) =>
          Array.from({ length: 6 }, (_, index) =>
            engines[index % 2]!.createRun(scope, {
              ...walletBody(keyIndex),
              idempotency_key: idempotencyKey,
            }).then((result) => ({ idempotencyKey, result })),
          ),
        ),
      );
      for (const idempotencyKey of keys) {
        const mine = results.filter((item) => item.idempotencyKey === idempotencyKey);
        expect(new Set(mine.map(({ result }) => result.run.id)).size).toBe(1);
        expect(mine.filter(({ result }) => result.created)).toHaveLength(1);
      }
      expect(await runCount()).toBe(before + keys.length);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('the same key with two bodies at once on both hosts: one body wins, the other is refused', async () => {
    const before = await runCount();
    const idempotencyKey = `two-bodies-${Date.now()}`;
    const bodies = [walletBody(201), walletBody(202)];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        clients[index % 2]!.call<RunRecord>('POST', '/v1/program-runs', {
          body: bodies[Math.floor(index / 2) % 2],
          idempotencyKey,
        }).then((answer) => ({ body: bodies[Math.floor(index / 2) % 2]!, answer })),
      ),
    );
    const winners = answers.filter(({ answer }) => is2xx(answer));
    expect(new Set(winners.map(({ answer }) => answer.body.id)).size).toBe(1);
    const winning = winners[0]!;
    expect(winning.answer.body.inputs).toEqual(winning.body.inputs);
    for (const { body, answer } of answers) {
      if (body === winning.body) expect([200, 201, 409]).toContain(answer.status);
      else expect([409, 422]).toContain(answer.status);
    }
    expect(await runCount()).toBe(before + 1);
  });

  it('concurrent approvals from distinct approvers on both hosts: quorum 2 reached once, no lost update', async () => {
    const run = await payoutAwaitingRelease(clients[0]!, actorClient(1, MAKER));
    const approvers = ['ops:c1', 'ops:c2', 'ops:c3', 'ops:c4', 'ops:c5', 'ops:c6', MAKER];
    // Every approver on both hosts at once: 14 approvals for 2 places.
    const sent = await Promise.all(
      approvers.flatMap((approver) =>
        [0, 1].map((host) =>
          sendSignal(
            run.id,
            host,
            { kind: 'approval', approver, decision: 'approve' },
            'release_approval',
          ),
        ),
      ),
    );
    const { outcome, history } = await expectSerializable(run.id, sent, PAYOUT_RELEASE);
    expect(outcome).toBe('granted');
    const decisions = history.records.filter(
      (record) =>
        record.step === 'release_approval' &&
        ['program_run.approval.recorded', 'program_run.approval.granted'].includes(record.type),
    );
    expect(decisions.map((record) => record.type)).toEqual([
      'program_run.approval.recorded',
      'program_run.approval.granted',
    ]);
  });

  it('approve and cancel racing on one run from the two hosts: exactly one is applied', async () => {
    const runs = await Promise.all(
      [0, 1, 2, 3].map((index) =>
        createRunAwaiting(clients[index % 2]!, 'wallet-delivery@v1', RELEASE_APPROVAL.step),
      ),
    );
    const outcomes = await Promise.all(
      runs.map(async (run, index) => {
        const sent = await Promise.all([
          sendSignal(
            run.id,
            index % 2,
            { kind: 'approval', ...RELEASE_APPROVAL },
            RELEASE_APPROVAL.step,
          ),
          sendSignal(run.id, (index + 1) % 2, { kind: 'cancel' }, RELEASE_APPROVAL.step),
        ]);
        expect(sent.filter((signal) => signal.status === 200)).toHaveLength(1);
        return (await expectSerializable(run.id, sent, WALLET_RELEASE)).outcome;
      }),
    );
    for (const outcome of outcomes) expect(['granted', 'cancelled']).toContain(outcome);
  });

  it('timers claimed by both schedulers each fire once', async () => {
    const runs = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        createRunAwaiting(clients[index % 2]!, 'wallet-delivery@v1', RELEASE_APPROVAL.step),
      ),
    );
    await Promise.all(
      runs.map(async (run, index) => {
        const answer = await clients[(index + 1) % 2]!.call(
          'POST',
          `/v1/program-runs/${run.id}/approvals`,
          { body: RELEASE_APPROVAL },
        );
        expect(answer.status).toBe(200);
      }),
    );
    for (const [index, run] of runs.entries()) {
      await waitForRun(clients[index % 2]!, run.id, (next) => next.status === 'completed');
      const history = await readRunHistory(clients[index % 2]!, run.id);
      expect(historyProblems(history)).toEqual([]);
      const confirmations = history.records.filter(
        (record) => record.type === 'program_run.handoff.confirmed',
      );
      expect(confirmations.map((record) => record.step)).toEqual([
        'screen_destination',
        'transfer_to_wallet',
      ]);
    }
    // Nothing left pending for these runs in the shared store.
    const store = await setup!.open();
    try {
      const pending = await store.transaction(async (tx) => {
        const timers = [];
        for (const run of runs) timers.push(...(await tx.pendingTimers(run.id)));
        return timers;
      });
      expect(pending).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('property: any interleaving of approvals, rejections and cancels across the hosts is serializable', async () => {
    const NUM_RUNS = 6;
    const pool = await Promise.all(
      Array.from({ length: NUM_RUNS }, (_, index) =>
        payoutAwaitingRelease(clients[index % 2]!, actorClient((index + 1) % 2, MAKER)),
      ),
    );
    const signal = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('approval' as const),
          approver: fc.constantFrom('ops:ana', 'ops:ben', 'ops:cy', MAKER),
          decision: fc.constantFrom('approve' as const, 'approve' as const, 'reject' as const),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const) }) },
    );
    const command = fc.record({
      signal,
      host: fc.integer({ min: 0, max: 1 }),
      delayMs: fc.integer({ min: 0, max: 25 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const run = pool.pop() ?? (await payoutAwaitingRelease(clients[0]!, actorClient(1, MAKER)));
        const sent = await Promise.all(
          commands.map(async ({ signal: next, host, delayMs }) => {
            await new Promise((resolve) => setTimeout(resolve, delayMs));
            return sendSignal(run.id, host, next, PAYOUT_RELEASE.step);
          }),
        );
        const { outcome, history } = await expectSerializable(run.id, sent, PAYOUT_RELEASE);
        if (outcome === 'open') {
          expect(history.run.awaiting?.step).toBe(PAYOUT_RELEASE.step);
        }
      }),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
  });
});
