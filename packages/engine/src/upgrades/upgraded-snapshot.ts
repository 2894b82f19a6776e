import type { FlowGraph, PersistedSnapshot, RunContext } from '@programrun/dsl';

/** Where a run waiting at one step of the old version waits in the new one. */
export interface SnapshotMove {
  /** The old version's step the run waits at. */
  readonly from: string;
  /** The new version's step it waits at instead. */
  readonly to: string;
  /** The new version's flow graph. */
  readonly graph: FlowGraph;
  /** Old step id → new step id, for steps that only changed name. */
  readonly renames: Readonly<Record<string, string>>;
}

/** The context maps keyed by step id. */
const STEP_KEYED = [
  'routes',
  'route_selections',
  'checks',
  'approvals',
  'handoffs',
  'attempts',
  'progress',
] as const satisfies readonly (keyof RunContext)[];

/**
 * The snapshot of a run waiting at `move.from` as a run of the new version waiting at
 * `move.to`: the same resting point (`{ <stage or compensating>: { <step>: <leaf> } }`) at
 * the new step, and the same context with renamed steps under their new ids (what a step
 * decided, answered and how often it was entered travel with it). A run moved to a step
 * that is not a rename of its own keeps its attempt count there, so its timers and its
 * partner key stay those of the attempt it waits in. A string says why the snapshot cannot
 * be moved (it does not rest at `move.from`, or `move.to` is no step of the new version).
 */
export function upgradedSnapshot(
  snapshot: PersistedSnapshot,
  move: SnapshotMove,
): PersistedSnapshot | string {
  const target = move.graph.steps.get(move.to);
  if (!target) return `"${move.to}" is not a step of the new version`;
  const value = snapshot.value;
  const outer = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  const inner = outer.length === 1 ? (value as Record<string, unknown>)[outer[0]!] : undefined;
  const leaf =
    typeof inner === 'object' && inner !== null && Object.keys(inner).length === 1
      ? (inner as Record<string, unknown>)[move.from]
      : undefined;
  if (typeof leaf !== 'string') return `the run does not rest at "${move.from}"`;
  const renamed = (id: string) => move.renames[id] ?? id;
  const { context } = snapshot;
  const moved: Record<string, unknown> = { ...context };
  for (const key of STEP_KEYED) {
    moved[key] = Object.fromEntries(
      Object.entries(context[key]).map(([step, entry]) => [renamed(step), entry]),
    );
  }
  moved.compensation_stack = context.compensation_stack.map(renamed);
  const attempts = moved.attempts as Record<string, number>;
  if (attempts[move.to] === undefined && context.attempts[move.from] !== undefined)
    attempts[move.to] = context.attempts[move.from]!;
  return {
    value: { [target.stage ?? 'compensating']: { [move.to]: leaf } },
    context: moved as unknown as RunContext,
  };
}
