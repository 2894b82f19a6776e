import type { CompiledScenario, EdgeKind } from '@programrun/dsl';
import type { LifecycleRecord } from '@programrun/engine';
import { attemptEdgeId, compensationEdgeId, flowEdgeId, ruleEdgeId } from './scenario-edges.js';
import { completesStep } from './step-completion.js';

/** How a step was left, by the record that says so (for the steps that record one). */
const EXIT_KINDS: Readonly<Record<string, EdgeKind>> = {
  'program_run.handoff.confirmed': 'success',
  'program_run.handoff.rejected': 'reject',
  'program_run.handoff.failed': 'fail',
  'program_run.handoff.timed_out': 'timeout',
  'program_run.approval.granted': 'success',
  'program_run.approval.rejected': 'reject',
  'program_run.approval.expired': 'timeout',
  'program_run.wait.completed': 'success',
  'program_run.record.created': 'success',
  'program_run.delivery.recorded': 'success',
  'program_run.step.skipped': 'skip',
  'program_run.step.exhausted': 'exhausted',
};

/** The start of a (re-)entered waiting step, with its attempt number. */
const STARTS = new Set([
  'program_run.handoff.requested',
  'program_run.approval.requested',
  'program_run.wait.started',
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The edges one record shows taken, as ids of `scenarioEdges`. */
function recordEdges(
  compiled: CompiledScenario,
  record: LifecycleRecord,
  compensations: ReadonlySet<string>,
): string[] {
  const from = record.step;
  if (from === null) return [];
  // A compensation counts once it completed (its legs moved): one that timed out undid nothing.
  if (compensations.has(from))
    return completesStep(record, compiled.graph.steps.get(from)?.kind)
      ? [compensationEdgeId(from)]
      : [];
  const data = record.data as Record<string, unknown>;
  const edges: string[] = [];
  if (STARTS.has(record.type) && typeof data.attempt === 'number' && data.attempt > 1) {
    // Only re-entries a `max_attempts` bounds are edges (an unbounded loop has no last one).
    const definition = compiled.graph.steps.get(from)?.definition;
    const max = definition && 'max_attempts' in definition ? definition.max_attempts : undefined;
    if (max !== undefined && data.attempt <= max) edges.push(attemptEdgeId(from, data.attempt));
  }
  if (record.type === 'program_run.policy.evaluated') {
    for (const rule of Array.isArray(data.rules) ? data.rules : []) {
      if (!isObject(rule) || typeof rule.id !== 'string') continue;
      if (rule.outcome === 'pass' || rule.outcome === 'fail')
        edges.push(ruleEdgeId(from, rule.id, rule.outcome));
    }
    if (data.decision === 'allow') edges.push(flowEdgeId({ from, kind: 'success' }));
    if (data.decision === 'deny') edges.push(flowEdgeId({ from, kind: 'fail' }));
    return edges;
  }
  if (record.type === 'program_run.route.selected') {
    edges.push(
      typeof data.selected === 'string'
        ? flowEdgeId({ from, kind: 'route', alternative: data.selected })
        : flowEdgeId({ from, kind: 'no_route' }),
    );
    return edges;
  }
  const kind = EXIT_KINDS[record.type];
  // A failed delivery step, a record written by a compensation… only steps of the graph count.
  if (kind !== undefined && compiled.graph.steps.has(from)) edges.push(flowEdgeId({ from, kind }));
  return edges;
}

/**
 * The ids of the scenario edges (see `scenarioEdges`) a run's lifecycle records show
 * taken: how each step was left, each gate rule's outcome, each attempt of a step its
 * `max_attempts` bounds, and each compensation that completed.
 *
 * @example
 * ```ts
 * const taken = traceEdges(compiled, trace.records);
 * taken.has('payer_approval success'); // true once the payer approved
 * ```
 */
export function traceEdges(
  compiled: CompiledScenario,
  records: readonly LifecycleRecord[],
): Set<string> {
  const compensations = new Set(compiled.graph.compensations);
  const taken = new Set<string>();
  for (const record of records)
    for (const edge of recordEdges(compiled, record, compensations)) taken.add(edge);
  return taken;
}
