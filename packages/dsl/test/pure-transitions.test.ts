// The compiled scenario's steps (one inert scope per machine) against XState's own pure
// functions (`initialTransition`, `transition`, a throwaway actor per call): for random
// event sequences on every catalogue scenario, the same snapshots and the same facts.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  compile,
  loadScenario,
  type CompiledScenario,
  type RunEvent,
  type StepResult,
} from '../src/index.js';

const directory = new URL('../../../scenarios/', import.meta.url);
const catalogue: CompiledScenario[] = readdirSync(directory)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => {
    const result = loadScenario(readFileSync(new URL(name, directory), 'utf8'), { file: name });
    if (!result.ok) throw new Error(`${name} does not load`);
    return compile(result.scenario);
  });

const AT = '2026-01-01T00:00:00.000Z';

/** An event for what the run awaits (most of the time) or a stray one, chosen by `choice`. */
function eventFor(compiled: CompiledScenario, result: StepResult, choice: number): RunEvent {
  const awaited = result.state.awaiting;
  const steps = [...compiled.graph.steps.keys()];
  const step = awaited && choice % 10 < 8 ? awaited.step : steps[choice % steps.length]!;
  const attempt = awaited?.attempt ?? 1;
  const variant = Math.floor(choice / 10);
  // A confirmed answer carries the data the step's simulation would give.
  const definition = compiled.graph.steps.get(step)?.definition;
  const simulated = definition?.kind === 'handoff' ? (definition.simulation?.data ?? {}) : {};
  const data = compiled.evaluator.fields(simulated, result.snapshot.context);
  const answers: RunEvent[] = [
    {
      type: 'handoff.outcome',
      step,
      outcome: 'confirmed',
      reference: `ref_${choice}`,
      data: data.ok ? (data.value as never) : {},
      at: AT,
    },
    { type: 'handoff.outcome', step, outcome: 'rejected', reference: `ref_${choice}`, at: AT },
    { type: 'handoff.outcome', step, outcome: 'failed', reference: `ref_${choice}`, at: AT },
  ];
  const decisions: RunEvent[] = [
    {
      type: 'approval.decision',
      step,
      decision: 'approve',
      approver: `approver_${choice}`,
      at: AT,
    },
    { type: 'approval.decision', step, decision: 'reject', approver: `approver_${choice}`, at: AT },
  ];
  const fired: RunEvent = { type: 'timer.fired', step, attempt, at: AT };
  if (awaited && choice % 10 < 8) {
    if (awaited.kind === 'handoff') return answers[variant % 5 === 0 ? 1 + (variant % 2) : 0]!;
    if (awaited.kind === 'approval') return variant % 5 === 0 ? decisions[1]! : decisions[0]!;
    return fired;
  }
  const any = [
    ...answers,
    ...decisions,
    fired,
    { type: 'run.cancel', reason: 'test', at: AT } as const,
  ];
  return any[variant % any.length]!;
}

const actionTypes = (actions: readonly { type: string }[]) => actions.map((action) => action.type);

describe('pure transitions', () => {
  it.each(catalogue.map((compiled) => [compiled.id, compiled] as const))(
    '%s: the same snapshots and facts as XState’s transition()',
    (_id, compiled) => {
      let accepted = 0;
      let facts = 0;
      fc.assert(
        fc.property(fc.array(fc.nat({ max: 1_000 }), { maxLength: 30 }), (choices) => {
          const input = {
            environment: 'test' as const,
            inputs: compiled.definition.example_inputs as never,
          };
          const ours = compiled.start(input);
          const [theirs, theirActions] = initialTransition(compiled.machine, input);
          expect(ours.snapshot).toEqual({ value: theirs.value, context: theirs.context });
          expect(ours.facts.length).toBe(
            actionTypes(theirActions).filter((type) => type === 'xstate.emit').length,
          );
          let mine = ours;
          let reference = theirs;
          for (const choice of choices) {
            const event = eventFor(compiled, mine, choice);
            const next = compiled.transition(mine.snapshot, event);
            const [expected, actions] = transition(compiled.machine, reference, event as never);
            expect(next.snapshot).toEqual({ value: expected.value, context: expected.context });
            expect(next.accepted).toBe(expected !== reference);
            expect(next.facts.length).toBe(
              actionTypes(actions).filter((type) => type === 'xstate.emit').length,
            );
            if (next.accepted) accepted += 1;
            facts += next.facts.length;
            mine = next;
            reference = expected;
          }
        }),
        { numRuns: 40, seed: 19 },
      );
      // The sequences go somewhere: steps are taken and facts emitted along the way.
      expect(accepted).toBeGreaterThan(40);
      expect(facts).toBeGreaterThan(accepted);
    },
  );
});
