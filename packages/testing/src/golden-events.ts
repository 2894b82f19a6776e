import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { CompiledScenario } from '@programrun/dsl';
import {
  webhookEventBody,
  webhookEventOf,
  type RunRecord,
  type WebhookEvent,
} from '@programrun/engine';
import { happyPathPlan, runTrace } from './run-trace.js';
import type { PlanAction, SignalPlan } from './signal-plan.js';

/** The final status a golden path must end in. */
export type GoldenStatus = 'completed' | 'faulted' | 'cancelled';

/**
 * A named, declarative case of a scenario whose event sequence is pinned as a fixture.
 * `name` is part of the fixture's file name (kebab-case); `inputs` are merged over the
 * scenario's `example_inputs`; `status` is the final status the run must reach.
 */
export interface GoldenPath {
  readonly name: string;
  readonly status: GoldenStatus;
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly plan: SignalPlan;
}

/** The events of one golden path, with their exact webhook bodies. */
export interface GoldenSequence {
  readonly scenarioId: string;
  readonly scenarioDigest: string;
  readonly pathName: string;
  readonly run: RunRecord;
  readonly events: readonly WebhookEvent[];
  /** `webhookEventBody` of each event: the bytes a webhook delivers. */
  readonly bodies: readonly string[];
  /** What each plan action did, as `runTrace` logs it. */
  readonly log: readonly string[];
}

/**
 * One step of a golden plan: move to the next timer (a partner answers or a wait ends),
 * decide the pending approval (each decision by a new approver), let the pending deadline
 * lapse, cancel, or answer the pending handoff.
 */
export type GoldenStep =
  | 'next'
  | 'approve'
  | 'reject'
  | 'expire'
  | 'cancel'
  | 'partner-confirms'
  | 'partner-rejects'
  | 'partner-fails';

/**
 * The happy path every scenario pins: `happyPathPlan()` on `example_inputs`.
 *
 * @example
 * ```ts
 * const paths = [HAPPY_GOLDEN_PATH, { name: 'declined', status: 'cancelled', plan: goldenPlan('reject') }];
 * ```
 */
export const HAPPY_GOLDEN_PATH: GoldenPath = {
  name: 'happy',
  status: 'completed',
  plan: happyPathPlan(),
};

/**
 * A plan from golden steps, with simulated partners answering; once the steps are done
 * every pending deadline lapses until the run ends. Each `approve` or `reject` is decided
 * by a new approver, so quorum and four eyes hold.
 *
 * @example
 * ```ts
 * // Two partner answers arrive, then the first approval is rejected.
 * const path: GoldenPath = { name: 'maker-declines', status: 'cancelled', plan: goldenPlan('next', 'next', 'reject') };
 * ```
 */
export function goldenPlan(...steps: readonly GoldenStep[]): SignalPlan {
  let approver = 0;
  const actions = steps.map((step): PlanAction => {
    switch (step) {
      case 'next':
        return { kind: 'next' };
      case 'approve':
      case 'reject':
        approver += 1;
        return { kind: 'decide', decision: step, approver: approver - 1 };
      case 'expire':
        return { kind: 'expire' };
      case 'cancel':
        return { kind: 'cancel' };
      case 'partner-confirms':
        return { kind: 'answer', outcome: 'confirmed' };
      case 'partner-rejects':
        return { kind: 'answer', outcome: 'rejected' };
      case 'partner-fails':
        return { kind: 'answer', outcome: 'failed' };
    }
  });
  return { partnersAnswer: true, actions, drain: 'expire' };
}

/**
 * Runs a golden path in the test environment (virtual clock, ids seeded by the path's
 * name) and returns its events as webhooks deliver them.
 *
 * @example
 * ```ts
 * const sequence = await goldenEvents(compiled, HAPPY_GOLDEN_PATH);
 * sequence.run.status; // 'completed'
 * ```
 */
export async function goldenEvents(
  compiled: CompiledScenario,
  path: GoldenPath,
): Promise<GoldenSequence> {
  const inputs = { ...compiled.definition.example_inputs, ...path.inputs };
  const trace = await runTrace(compiled, inputs, path.plan, `golden:${path.name}`);
  const run = trace.run;
  const subject = {
    id: run.id,
    scenario_id: run.scenario_id,
    scenario_digest: run.scenario_digest,
  };
  const events = trace.records.map((record) => webhookEventOf(record, subject, 'test'));
  return {
    scenarioId: compiled.id,
    scenarioDigest: run.scenario_digest,
    pathName: path.name,
    run,
    events,
    bodies: events.map(webhookEventBody),
    log: trace.log,
  };
}

/**
 * The text fixture of a golden sequence: a header, one aligned line per event
 * (`sequence  type  stage/step  created`), and `events sha256:<hex>` over every webhook
 * body joined by `\n`, so a change to any payload byte changes the fixture too.
 *
 * @example
 * ```ts
 * const text = formatGoldenSequence(await goldenEvents(compiled, HAPPY_GOLDEN_PATH));
 * text.split('\n').at(-2); // 'events sha256:…'
 * ```
 */
export function formatGoldenSequence(sequence: GoldenSequence): string {
  const { run } = sequence;
  const outcome = run.outcome
    ? [`outcome   ${run.outcome.reason} at ${run.outcome.step ?? '-'}`]
    : [];
  const header = [
    `scenario  ${sequence.scenarioId}`,
    `digest    ${sequence.scenarioDigest}`,
    `path      ${sequence.pathName}`,
    `status    ${run.status}`,
    ...outcome,
    `events    ${sequence.events.length}`,
  ];
  const rows = sequence.events.map((event) => [
    String(event.sequence ?? '-'),
    event.type,
    `${event.stage ?? '-'}/${event.step ?? '-'}`,
    event.created,
  ]);
  const table = alignColumns([['seq', 'type', 'stage/step', 'created'], ...rows]);
  const digest = bytesToHex(sha256(utf8ToBytes(sequence.bodies.join('\n'))));
  return [...header, '', ...table, '', `events sha256:${digest}`, ''].join('\n');
}

/** Left-aligns every column but the first (right-aligned), two spaces apart. */
function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows.reduce<number[]>(
    (max, row) => row.map((cell, index) => Math.max(max[index] ?? 0, cell.length)),
    [],
  );
  return rows.map((row) =>
    row
      .map((cell, index) =>
        index === 0 ? cell.padStart(widths[0] ?? 0) : cell.padEnd(widths[index] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}
