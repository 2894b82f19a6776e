import { fileURLToPath } from 'node:url';
import { compile, formatProblem, type CompiledScenario, type RunEvent } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';

/** Loads and compiles one scenario of the catalogue. */
export async function loadCompiled(id: string): Promise<CompiledScenario> {
  const file = fileURLToPath(new URL(`../../scenarios/${id}.yaml`, import.meta.url));
  const result = await loadScenarioFile(file);
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  return compile(result.scenario);
}

/**
 * The events that drive a scenario's happy path from its example inputs: every handoff
 * confirmed with its simulated data, every approval by a new approver, every timer fired.
 */
export function happyPathEvents(compiled: CompiledScenario): RunEvent[] {
  const at = '2026-01-01T00:00:00.000Z';
  const events: RunEvent[] = [];
  let result = compiled.start({
    environment: 'test',
    inputs: compiled.definition.example_inputs as never,
  });
  let approver = 0;
  while (result.state.awaiting) {
    const { kind, step, attempt } = result.state.awaiting;
    const definition = compiled.graph.steps.get(step)?.definition;
    let event: RunEvent;
    if (kind === 'handoff') {
      const simulated = definition?.kind === 'handoff' ? (definition.simulation?.data ?? {}) : {};
      const data = compiled.evaluator.fields(simulated, result.snapshot.context);
      if (!data.ok) throw new Error(data.error);
      event = {
        type: 'handoff.outcome',
        step,
        outcome: 'confirmed',
        reference: `ref_${step}`,
        data: data.value as never,
        at,
      };
    } else if (kind === 'approval') {
      event = {
        type: 'approval.decision',
        step,
        decision: 'approve',
        approver: `approver_${(approver += 1)}`,
        at,
      };
    } else {
      event = { type: 'timer.fired', step, attempt, at };
    }
    result = compiled.transition(result.snapshot, event);
    if (!result.accepted) throw new Error(`${event.type} for ${step} not accepted`);
    events.push(event);
  }
  if (result.state.status !== 'completed')
    throw new Error(`happy path ended ${result.state.status}`);
  return events;
}
