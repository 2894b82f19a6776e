// The handoff chaos drill, shared by the memory-store suite (here) and the PostgreSQL one
// (store-postgres): live `wallet-delivery@v1` runs whose two handoffs (screening by
// chain_analytics, the transfer by the custodian) go through the real HTTP connector to a
// partner stub on 127.0.0.1 that, call by call at random (seeded), answers at once, answers
// slowly, answers after the connector's timeout, fails with a 5xx, drops the connection,
// answers 202 and calls back, or answers 200 and calls back too. Background workers call,
// retry and settle; the drill approves each release and returns what the audit found.
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  EngineError,
  FINAL_STATUSES,
  generateWebhookSecret,
  type Engine,
  type LifecycleRecord,
  type RunRecord,
  type Scope,
  type StoreV1,
} from '@programrun/engine';
import { createHttpConnector } from '../src/connectors/http-connector.js';
import { auditHandoffs, type HandoffAudit } from './handoff-audit.js';
import {
  startPartnerStub,
  type PartnerBehaviour,
  type PartnerCall,
  type PartnerCallbackSender,
  type PartnerStub,
} from './partner-stub.js';

/** The parties of `wallet-delivery@v1` that hand off. */
export const WALLET_PARTIES = ['chain_analytics', 'custodian'] as const;

/** Valid live inputs of `wallet-delivery@v1` (no compliance review: at most 2,500.00). */
export const WALLET_LIVE_INPUTS = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

/** The release approval every wallet delivery waits on between its two handoffs. */
export const RELEASE = {
  kind: 'approval',
  step: 'release_approval',
  decision: 'approve',
  approver: 'ops:treasury',
} as const;

/** The connector's limit per call; `late` answers come after it. */
const CONNECTOR_TIMEOUT_MS = 300;

/** Options of {@link runHandoffChaos}. */
export interface HandoffChaosOptions {
  readonly store: StoreV1;
  readonly scenarios: readonly CompiledScenario[];
  /** Live runs to drive (each has two handoffs). @default 24 */
  readonly runs?: number;
  /** Accounts the runs are spread over. @default 2 */
  readonly accounts?: number;
  /** Seeds the behaviour of each call; random when omitted (printed in the report). */
  readonly seed?: number;
  /** How long the runs may take to finish. @default 40_000 */
  readonly timeoutMs?: number;
}

/** What the drill did and found. */
export interface HandoffChaosReport {
  readonly seed: number;
  readonly runs: readonly RunRecord[];
  readonly histories: ReadonlyMap<string, readonly LifecycleRecord[]>;
  readonly audit: HandoffAudit;
  readonly calls: readonly PartnerCall[];
  /** Calls per behaviour. */
  readonly behaviours: Readonly<Record<string, number>>;
  /** Callbacks that did not end `ok` (tolerated refusals of a late second answer excluded). */
  readonly failedCallbacks: readonly string[];
  /** Keys the partner got more than one call for. */
  readonly retriedKeys: number;
  /** Problems the workers reported through `onError`. */
  readonly workerErrors: readonly string[];
}

/** mulberry32: a small seeded generator, so a failing drill replays with its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random behaviour for a call; from the fourth call of a key on, an answer at once. */
function chaoticBehaviour(random: () => number): (call: PartnerCall) => PartnerBehaviour {
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const choices: (() => PartnerBehaviour)[] = [
    () => ({ kind: 'answer' }),
    () => ({ kind: 'answer', delayMs: between(30, 150) }),
    () => ({ kind: 'answer', delayMs: CONNECTOR_TIMEOUT_MS + between(50, 150) }),
    () => ({ kind: 'fail', status: [500, 502, 503][between(0, 2)]! }),
    () => ({ kind: 'fail', status: 503, delayMs: between(10, 60) }),
    () => ({ kind: 'accept', callbackAfterMs: between(0, 80) }),
    () => ({ kind: 'twice', delayMs: between(0, 40), callbackAfterMs: between(0, 40) }),
    () => ({ kind: 'drop', delayMs: between(0, 30) }),
  ];
  return (call) =>
    call.callOfKey >= 4 ? { kind: 'answer' } : choices[between(0, choices.length - 1)]!();
}

/** A second answer to a handoff already answered is refused; the first one stands. */
const TOLERATED = new Set(['step_not_awaiting', 'run_finished']);

/** Sends a partner's callback through `engine.signal`, as the HTTP route would. */
export function engineCallback(engine: Engine): PartnerCallbackSender {
  return async (request, answer) => {
    const scope: Scope = { account: request.account, environment: request.environment };
    try {
      await engine.signal(scope, request.run_id, {
        kind: 'handoff',
        step: request.step,
        outcome: answer.outcome,
        reference: answer.reference,
        data: answer.data ?? {},
        idempotency_key: request.idempotency_key,
        answered_by: { actor: `partner:${request.party}`, credential_id: 'key_partner_stub' },
      });
    } catch (error) {
      if (error instanceof EngineError && TOLERATED.has(error.code)) return;
      throw error;
    }
  };
}

/** Every record of a run, in sequence order. */
export async function historyOf(
  engine: Engine,
  scope: Scope,
  runId: string,
): Promise<LifecycleRecord[]> {
  const records: LifecycleRecord[] = [];
  for (;;) {
    const page = await engine.listEvents(scope, runId, {
      afterSequence: records.length,
      limit: 1000,
    });
    records.push(...page);
    if (page.length < 1000) return records;
  }
}

/**
 * Creates live runs and approves each release until every run finished (or `timeoutMs`);
 * returns the runs as they ended.
 */
export async function driveWalletRuns(
  engine: Engine,
  scopes: readonly Scope[],
  count: number,
  timeoutMs: number,
): Promise<{ run: RunRecord; scope: Scope }[]> {
  const started: { id: string; scope: Scope }[] = [];
  for (let index = 0; index < count; index += 1) {
    const scope = scopes[index % scopes.length]!;
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: { ...WALLET_LIVE_INPUTS, amount: `${100 + index}.00` },
      idempotency_key: `chaos-${index}`,
    });
    started.push({ id: run.id, scope });
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await Promise.all(
      started.map(async ({ id, scope }) => ({ run: await engine.getRun(scope, id), scope })),
    );
    const waiting = runs.filter(({ run }) => run.awaiting?.step === RELEASE.step);
    for (const { run, scope } of waiting) await engine.signal(scope, run.id, RELEASE);
    const finished = (run: RunRecord) => FINAL_STATUSES.has(run.status);
    if (runs.every(({ run }) => finished(run))) return runs;
    if (Date.now() > deadline) {
      const open = runs.filter(({ run }) => !finished(run));
      throw new Error(
        `${open.length} runs did not finish in ${timeoutMs} ms: ` +
          open
            .slice(0, 5)
            .map(({ run }) => `${run.id} ${JSON.stringify(run.awaiting)}`)
            .join('; '),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Runs the drill on `store` and returns its report (the caller asserts).
 *
 * @example
 * ```ts
 * const report = await runHandoffChaos({ store: createMemoryStore(), scenarios, runs: 24 });
 * expect(report.audit.problems).toEqual([]);
 * ```
 */
export async function runHandoffChaos(options: HandoffChaosOptions): Promise<HandoffChaosReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = seeded(seed);
  const secret = generateWebhookSecret();
  const engineRef: { current?: Engine } = {};
  let partner: PartnerStub | undefined;
  const workerErrors: string[] = [];
  try {
    partner = await startPartnerStub({
      secret,
      behaviour: chaoticBehaviour(random),
      callback: (request, answer) => engineCallback(engineRef.current!)(request, answer),
    });
    const connector = createHttpConnector({
      url: partner.url,
      secret,
      allowLoopback: true,
      timeoutMs: CONNECTOR_TIMEOUT_MS,
    });
    // The breaker opens after five failures in a row and probes again 100 ms later, so a
    // streak of bad luck slows the drill down without stalling it.
    const limits = { connector, concurrency: 8, breaker: { failureThreshold: 5, cooldownMs: 100 } };
    const engine = createEngine({
      store: options.store,
      scenarios: [...options.scenarios],
      connectors: { chain_analytics: limits, custodian: limits },
      handoffs: {
        leaseMs: 5_000,
        retry: { initialMs: 20, factor: 2, maxMs: 200 },
        pollIntervalMs: 20,
      },
    });
    engineRef.current = engine;
    const workers = engine.startHandoffWorkers({
      onError: (error) => workerErrors.push(error instanceof Error ? error.message : String(error)),
    });
    const accounts = options.accounts ?? 2;
    const scopes: Scope[] = Array.from({ length: accounts }, (_, index) => ({
      account: `acct_chaos_${index}`,
      environment: 'live',
    }));
    let ended: { run: RunRecord; scope: Scope }[];
    try {
      ended = await driveWalletRuns(
        engine,
        scopes,
        options.runs ?? 24,
        options.timeoutMs ?? 40_000,
      );
    } finally {
      await workers.stop();
    }
    await partner.idle();
    const histories = new Map<string, readonly LifecycleRecord[]>();
    for (const { run, scope } of ended)
      histories.set(run.id, await historyOf(engine, scope, run.id));
    const calls = [...partner.calls];
    const audit = auditHandoffs(histories, calls, {
      parties: WALLET_PARTIES,
      connectorTimeoutMs: CONNECTOR_TIMEOUT_MS,
    });
    const behaviours: Record<string, number> = {};
    for (const call of calls) behaviours[call.behaviour] = (behaviours[call.behaviour] ?? 0) + 1;
    const perKey = new Map<string, number>();
    for (const call of calls)
      perKey.set(call.idempotencyKey, (perKey.get(call.idempotencyKey) ?? 0) + 1);
    return {
      seed,
      runs: ended.map(({ run }) => run),
      histories,
      audit,
      calls,
      behaviours,
      failedCallbacks: partner.callbacks
        .filter((callback) => callback.result !== 'ok')
        .map((callback) => `${callback.idempotencyKey}: ${String(callback.result)}`),
      retriedKeys: [...perKey.values()].filter((count) => count > 1).length,
      workerErrors,
    };
  } finally {
    await partner?.close();
  }
}
