// Real, deterministic runs of every catalogue scenario, as webhook events: the examples
// of docs/reference/events.md and the corpus the event schema tests check.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkUpgrade, compile, type CompiledScenario } from '@programrun/dsl';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  TransientConnectorError,
  webhookEventOf,
  type HandoffConnector,
  type LifecycleRecord,
  type RunRecord,
  type WebhookEvent,
} from '@programrun/engine';
import { happyPathPlan, runTrace, type PlanAction, type SignalPlan } from '@programrun/testing';
import { EVENT_TYPES, type EventType } from '@programrun/engine';

/** Events of one real run, with where they came from. */
export interface EventTrace {
  /** `<scenario id> <plan name>`. */
  readonly label: string;
  readonly events: readonly WebhookEvent[];
}

const SCENARIOS = new URL('../../../scenarios/', import.meta.url);
let catalogue: Promise<CompiledScenario[]> | undefined;

/**
 * Every scenario of the repository's `scenarios/` directory, compiled once.
 *
 * @example
 * ```ts
 * const scenarios = await catalogueScenarios(); // 7 scenarios, sorted by id
 * ```
 */
export function catalogueScenarios(): Promise<CompiledScenario[]> {
  catalogue ??= loadCatalogue(fileURLToPath(SCENARIOS));
  return catalogue;
}

/**
 * A run's records as the webhook events they deliver.
 *
 * @example
 * ```ts
 * const events = eventsOf(trace.run, trace.records);
 * ```
 */
export function eventsOf(run: RunRecord, records: readonly LifecycleRecord[]): WebhookEvent[] {
  const target = { id: run.id, scenario_id: run.scenario_id, scenario_digest: run.scenario_digest };
  return records.map((record) => webhookEventOf(record, target, run.livemode ? 'live' : 'test'));
}

const rounds = (count: number, round: readonly PlanAction[]): PlanAction[] =>
  Array.from({ length: count }, () => round).flat();
const approveAll = (round: number): PlanAction[] =>
  [0, 1, 2, 3].map((offset) => ({
    kind: 'decide',
    decision: 'approve',
    approver: round * 4 + offset,
  }));

/** Fixed plans that walk the happy path and each kind of failure path. */
const PLANS: Readonly<Record<string, SignalPlan>> = {
  happy: happyPathPlan(),
  'first approval rejected': {
    partnersAnswer: true,
    actions: rounds(40, [{ kind: 'decide', decision: 'reject', approver: 0 }, { kind: 'next' }]),
    drain: 'expire',
  },
  'partners reject': {
    partnersAnswer: false,
    actions: Array.from({ length: 40 }, (_, round): PlanAction[] => [
      ...approveAll(round),
      { kind: 'answer', outcome: 'rejected' },
    ]).flat(),
    drain: 'expire',
  },
  'partners fail': {
    partnersAnswer: false,
    actions: Array.from({ length: 40 }, (_, round): PlanAction[] => [
      ...approveAll(round),
      { kind: 'answer', outcome: 'failed' },
    ]).flat(),
    drain: 'expire',
  },
  'partners fail late': {
    partnersAnswer: true,
    actions: Array.from({ length: 40 }, (_, round): PlanAction[] => [
      ...approveAll(round),
      ...(round >= 4
        ? [{ kind: 'answer', outcome: 'failed' } as const]
        : [{ kind: 'next' } as const]),
    ]).flat(),
    drain: 'expire',
  },
  'deadlines lapse': { partnersAnswer: false, actions: [], drain: 'expire' },
  'approvals lapse': {
    partnersAnswer: true,
    actions: rounds(60, [{ kind: 'next' }]),
    drain: 'expire',
  },
  'cancelled while waiting': {
    partnersAnswer: true,
    actions: Array.from({ length: 40 }, (_, round): PlanAction[] => [
      ...(round >= 3 ? [{ kind: 'cancel' } as const] : []),
      ...approveAll(round),
      { kind: 'next' },
    ]).flat(),
    drain: 'expire',
  },
};

/**
 * Runs every catalogue scenario (with its example inputs) under a fixed set of plans on a
 * virtual clock with seeded ids: the same events every time.
 *
 * @example
 * ```ts
 * for (const trace of await catalogueTraces()) console.log(trace.label, trace.events.length);
 * ```
 */
export async function catalogueTraces(): Promise<EventTrace[]> {
  const traces: EventTrace[] = [];
  const scenarios = await catalogueScenarios();
  // The public demo first: its events make the most readable examples.
  const ordered = [
    ...scenarios.filter((scenario) => scenario.definition.asset_track === 'public_demo'),
    ...scenarios.filter((scenario) => scenario.definition.asset_track !== 'public_demo'),
  ];
  for (const [name, plan] of Object.entries(PLANS)) {
    for (const compiled of ordered) {
      const trace = await runTrace(compiled, compiled.definition.example_inputs, plan, name);
      traces.push({ label: `${compiled.id} ${name}`, events: eventsOf(trace.run, trace.records) });
    }
  }
  return traces;
}

/**
 * The happy path of a variant of `wallet-delivery@v1` whose amount gate has a `when` its
 * example inputs do not meet: no catalogue scenario has a step `when`, so this is the run
 * that shows `step.skipped`.
 *
 * @example
 * ```ts
 * const trace = await skippedStepTrace(); // … program_run.step.skipped (amount_gate) …
 * ```
 */
export async function skippedStepTrace(): Promise<EventTrace> {
  const text = await readFile(new URL('wallet-delivery@v1.yaml', SCENARIOS), 'utf8');
  const gate = '        title: Amount within demo limits\n';
  const variant = text
    .replace('scenario: wallet-delivery\n', 'scenario: wallet-delivery-small-amounts\n')
    .replace(gate, `${gate}        when: money(inputs.amount) > money("1000.00")\n`);
  const compiled = compile(variant);
  const inputs = compiled.definition.example_inputs;
  const trace = await runTrace(compiled, inputs, happyPathPlan(), 'skipped step');
  return { label: `${compiled.id} happy`, events: eventsOf(trace.run, trace.records) };
}

/**
 * A live run of a restricted scenario created before its account's issuer activation
 * (`suspended`) and started by it (`resumed`): the only way those events happen.
 *
 * @example
 * ```ts
 * const trace = await activationTrace(); // created, suspended, resumed, stage.started, …
 * ```
 */
export async function activationTrace(): Promise<EventTrace> {
  const scenarios = await catalogueScenarios();
  const compiled = scenarios.find((scenario) => scenario.definition.asset_track === 'restricted')!;
  const clock = createVirtualClock('2026-06-01T08:00:00.000Z');
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios,
    clock,
    testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
    ids: seededIds('activation'),
  });
  const scope = { account: 'acct_issuer_client', environment: 'live' } as const;
  const { run } = await engine.createRun(scope, {
    scenario_id: compiled.id,
    inputs: compiled.definition.example_inputs,
  });
  clock.advanceTo(new Date('2026-06-01T09:30:00.000Z'));
  await engine.activations.activate(scope.account, {
    scenario: compiled.definition.scenario,
    reference: 'ISS-2026-0042',
  });
  const started = await engine.getRun(scope, run.id);
  const records = await engine.listEvents(scope, run.id, { limit: 1000 });
  return { label: `${compiled.id} live activation`, events: eventsOf(started, records) };
}

/**
 * A live run of `wallet-delivery@v1` whose chain-analytics party has a connector that
 * fails once (a 503) and answers the retry: the only way `handoff.attempted` happens (the
 * sandbox's calls are not recorded).
 *
 * @example
 * ```ts
 * const trace = await connectorTrace(); // … handoff.requested, handoff.attempted ×2, handoff.confirmed …
 * ```
 */
export async function connectorTrace(): Promise<EventTrace> {
  const scenarios = await catalogueScenarios();
  const compiled = scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1')!;
  const clock = createVirtualClock('2026-06-01T08:00:00.000Z');
  let calls = 0;
  const chainAnalytics: HandoffConnector = (request) => {
    calls += 1;
    if (calls === 1) {
      return Promise.reject(
        new TransientConnectorError('http_5xx', 'The partner answered 503.', 503),
      );
    }
    return Promise.resolve({
      outcome: 'confirmed',
      reference: `CA-${request.idempotency_key.slice(4, 12)}`,
      data: { risk: 'low' },
    });
  };
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios,
    clock,
    testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
    ids: seededIds('connector'),
    connectors: { chain_analytics: chainAnalytics },
  });
  const scope = { account: 'acct_platform', environment: 'live' } as const;
  const { run } = await engine.createRun(scope, {
    scenario_id: compiled.id,
    inputs: compiled.definition.example_inputs,
  });
  await engine.runDueHandoffs('live');
  // The retry is due within the first backoff (at most a second).
  clock.advanceTo(new Date('2026-06-01T08:00:05.000Z'));
  await engine.runDueHandoffs('live');
  const answered = await engine.getRun(scope, run.id);
  const records = await engine.listEvents(scope, run.id, { limit: 1000 });
  return { label: `${compiled.id} live connector`, events: eventsOf(answered, records) };
}

/**
 * A `handoff.attempted` event as a live connector's retry writes it: an illustrative
 * instance (a real call's `duration_ms` is measured, so real runs are not byte-stable).
 *
 * @example
 * ```ts
 * HANDOFF_ATTEMPTED_EXAMPLE.data.outcome; // 'retrying'
 * ```
 */
export const HANDOFF_ATTEMPTED_EXAMPLE: WebhookEvent = {
  id: 'evt_8c1f4b2a9e7d3c6b5a4f1e0d2c9b8a7f',
  object: 'event',
  type: 'program_run.handoff.attempted',
  sequence: 6,
  created: '2026-06-01T08:00:00.412Z',
  livemode: true,
  run: {
    id: 'prun_4f1c2d3e4f5a6b7c8d9e0f1a',
    scenario_id: 'wallet-delivery@v1',
    scenario_digest: 'sha256:3b1e0a4c5d6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b',
  },
  stage: 'intake',
  step: 'screen_destination',
  data: {
    party: 'chain_analytics',
    attempt: 1,
    call: 1,
    outcome: 'retrying',
    error_class: 'http_5xx',
    status: 503,
    duration_ms: 412,
    idempotency_key: 'pik_0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d',
    next_attempt_at: '2026-06-01T08:00:01.187Z',
  },
  record_hash: 'sha256:7d2e9f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e',
};

/**
 * The account-level event, which no run produces: an illustrative instance of the shape
 * the webhook delivery code writes.
 *
 * @example
 * ```ts
 * ENDPOINT_DISABLED_EXAMPLE.type; // 'webhook_endpoint.disabled'
 * ```
 */
export const ENDPOINT_DISABLED_EXAMPLE: WebhookEvent = {
  id: 'evt_5d0c3b7e2f9a4c1e8b6d0a3f7c2e9b14',
  object: 'event',
  type: 'webhook_endpoint.disabled',
  sequence: null,
  created: '2026-06-04T08:00:00.000Z',
  livemode: false,
  run: null,
  stage: null,
  step: null,
  data: {
    endpoint: {
      id: 'we_7Hq2LmP9xR4sT1vW8yZ3bC6d',
      url: 'https://ops.example.com/programrun/events',
    },
    reason: 'consistent_failure',
    status: 503,
    failing_since: '2026-06-01T08:00:00.000Z',
    disabled_at: '2026-06-04T08:00:00.000Z',
  },
  record_hash: null,
};

/**
 * A test run of `bank-payout@v1` waiting at its funds hold, moved to the `v2` of the
 * upgrading guide (it screens the beneficiary again before the payout) by
 * `engine.upgradeRuns`: the only way `program_run.upgraded` happens.
 *
 * @example
 * ```ts
 * const trace = await upgradeTrace(); // created, …, handoff.requested, upgraded
 * ```
 */
export async function upgradeTrace(): Promise<EventTrace> {
  const fixtures = new URL('../../dsl/test/fixtures/upgrades/', import.meta.url);
  const read = async (url: URL, file: string) => ({ text: await readFile(url, 'utf8'), file });
  const from = await read(new URL('bank-payout@v1.yaml', SCENARIOS), 'bank-payout@v1.yaml');
  const to = await read(new URL('bank-payout@v2.yaml', fixtures), 'bank-payout@v2.yaml');
  const migration = await read(
    new URL('bank-payout@v1-to-v2.yaml', fixtures),
    'bank-payout@v1-to-v2.yaml',
  );
  const [v1, v2] = [from, to].map(({ text, file }) => compile(text, { file })) as [
    CompiledScenario,
    CompiledScenario,
  ];
  const clock = createVirtualClock('2026-06-01T08:00:00.000Z');
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: [v1, v2],
    clock,
    testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
    ids: seededIds('upgrade'),
  });
  const scope = { account: 'acct_payouts', environment: 'test' } as const;
  const { run } = await engine.createRun(scope, {
    scenario_id: v1.id,
    inputs: v1.definition.example_inputs,
  });
  await engine.upgradeRuns(scope, {
    report: checkUpgrade(from, to, migration),
    actor: 'ops:release-manager',
  });
  const upgraded = await engine.getRun(scope, run.id);
  const records = await engine.listEvents(scope, run.id, { limit: 1000 });
  return { label: `${v1.id} → ${v2.id}`, events: eventsOf(upgraded, records) };
}

/**
 * One example event per type: the first that real runs produce (public demo happy path
 * first), the illustrative `handoff.attempted` and account-level events, nothing for a
 * type no run produced.
 *
 * @example
 * ```ts
 * const markdown = eventsMarkdown(await collectEventExamples());
 * ```
 */
export async function collectEventExamples(): Promise<Partial<Record<EventType, WebhookEvent>>> {
  const examples: Partial<Record<EventType, WebhookEvent>> = {};
  const traces = [
    ...(await catalogueTraces()),
    await skippedStepTrace(),
    await activationTrace(),
    await connectorTrace(),
    await upgradeTrace(),
  ];
  const known = new Set<string>(EVENT_TYPES);
  for (const trace of traces) {
    for (const event of trace.events) {
      const type = event.type as EventType;
      if (known.has(type) && examples[type] === undefined) examples[type] = event;
    }
  }
  examples['program_run.handoff.attempted'] = HANDOFF_ATTEMPTED_EXAMPLE;
  examples['webhook_endpoint.disabled'] = ENDPOINT_DISABLED_EXAMPLE;
  return examples;
}
