import type { FlowGraph } from '../graph/flow-graph.js';
import type { RunContext, RunEnding } from './run-context.js';

/** JSON form of a machine state value. */
export type PersistedStateValue = string | { readonly [key: string]: PersistedStateValue };

/** What the engine stores to restore a run: XState's state value and the context. */
export interface PersistedSnapshot {
  readonly value: PersistedStateValue;
  readonly context: RunContext;
}

/** What a run is waiting for, if anything. */
export interface Awaiting {
  readonly kind: 'approval' | 'handoff' | 'timer';
  readonly step: string;
  /** The party that holds the step (the partner for handoffs). */
  readonly party: string | null;
  /** Attempt number of the waiting step; timers carry it. */
  readonly attempt: number;
}

/** A snapshot summarised for the engine. */
export interface RunState {
  /** `active` while steps remain; otherwise how it ended. */
  readonly status: 'active' | FinalRunStatus;
  readonly stage: string | null;
  readonly step: string | null;
  readonly compensating: boolean;
  readonly awaiting: Awaiting | null;
  readonly ending: RunEnding | null;
}

/**
 * The statuses a run ends in; nothing changes it after them. The machine's final states
 * carry these names, and the engine's run statuses end with them.
 *
 * @example
 * ```ts
 * FINAL_RUN_STATUSES.includes('faulted'); // true
 * ```
 */
export const FINAL_RUN_STATUSES = ['completed', 'faulted', 'cancelled'] as const;

/** A status a run ends in. */
export type FinalRunStatus = (typeof FINAL_RUN_STATUSES)[number];

const FINAL = new Set<string>(FINAL_RUN_STATUSES);

/** The [outer, step] pair of a resting state value such as `{ posting: { post_ledger: 'active' } }`. */
function restingStep(value: PersistedStateValue): { outer: string; step: string } | null {
  if (typeof value === 'string') return null;
  const [outer, inner] = Object.entries(value)[0] ?? [];
  if (outer === undefined || inner === undefined || typeof inner === 'string') return null;
  const [step] = Object.keys(inner);
  return step === undefined ? null : { outer, step };
}

/**
 * Summarises a persisted snapshot: status, current stage and step, and what it awaits.
 */
export function describeRunState(graph: FlowGraph, snapshot: PersistedSnapshot): RunState {
  const { value, context } = snapshot;
  if (typeof value === 'string' && FINAL.has(value)) {
    return {
      status: value as RunState['status'],
      stage: null,
      step: null,
      compensating: false,
      awaiting: null,
      ending: context.ending,
    };
  }
  const resting = restingStep(value);
  const step = resting ? graph.steps.get(resting.step) : undefined;
  const attempt = step ? (context.attempts[step.id] ?? 0) : 0;
  let awaiting: Awaiting | null = null;
  if (step) {
    const party = step.party ?? null;
    if (step.kind === 'approval') awaiting = { kind: 'approval', step: step.id, party, attempt };
    if (step.kind === 'handoff') awaiting = { kind: 'handoff', step: step.id, party, attempt };
    if (step.kind === 'wait') awaiting = { kind: 'timer', step: step.id, party, attempt };
    if (step.kind === 'check' && context.checks[step.id]?.decision === 'review') {
      awaiting = { kind: 'approval', step: step.id, party, attempt };
    }
  }
  return {
    status: 'active',
    stage: step?.stage ?? null,
    step: step?.id ?? null,
    compensating: resting?.outer === 'compensating',
    awaiting,
    ending: context.ending,
  };
}
