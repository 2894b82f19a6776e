import type { FlowGraph, RunState } from '@programrun/dsl';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { StageRecord } from './run-record.js';

/**
 * Stages before the first transition: all pending.
 */
export function initialStages(graph: FlowGraph): StageRecord[] {
  return graph.stages.map((stage) => ({
    id: stage.id,
    title: stage.title,
    status: 'pending',
    started_at: null,
    completed_at: null,
  }));
}

/**
 * Applies a transition's stage facts to the stage list; when the run ends faulted or
 * cancelled, the stages still active end that way too.
 */
export function advanceStages(
  stages: readonly StageRecord[],
  facts: readonly PendingFact[],
  state: RunState,
  now: string,
): StageRecord[] {
  const byId = new Map(stages.map((stage) => [stage.id, stage]));
  for (const fact of facts) {
    const stage = fact.stage === null ? undefined : byId.get(fact.stage);
    if (!stage) continue;
    if (fact.type === 'stage.started') {
      byId.set(stage.id, {
        ...stage,
        status: 'active',
        started_at: stage.started_at ?? now,
        completed_at: null,
      });
    } else if (fact.type === 'stage.completed') {
      byId.set(stage.id, { ...stage, status: 'completed', completed_at: now });
    } else if (fact.type === 'stage.rewound') {
      byId.set(stage.id, { ...stage, status: 'pending', completed_at: null });
    }
  }
  if (state.status === 'completed') {
    for (const stage of byId.values()) {
      if (stage.status === 'pending') byId.set(stage.id, { ...stage, status: 'skipped' });
    }
  }
  if (state.status === 'faulted' || state.status === 'cancelled') {
    for (const stage of byId.values()) {
      if (stage.status === 'active')
        byId.set(stage.id, { ...stage, status: state.status, completed_at: now });
    }
  }
  return stages.map((stage) => byId.get(stage.id)!);
}
