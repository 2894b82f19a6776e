import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, formatProblem, loadScenarioDirectory } from '@programrun/dsl';
import {
  fc,
  happyPathPlan,
  inputsArbitrary,
  runTrace,
  signalPlanArbitrary,
  traceViolations,
} from '../src/index.js';

const loaded = await loadScenarioDirectory(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
if (loaded.problems.length > 0) throw new Error(loaded.problems.map(formatProblem).join('\n'));
const scenarios = loaded.scenarios.map((scenario) => compile(scenario));

// Runs per property; CI can raise it with PROGRAMRUN_PROPERTY_RUNS.
const runs = Number(process.env.PROGRAMRUN_PROPERTY_RUNS ?? 100);

describe.each(scenarios.map((compiled) => [compiled.id, compiled] as const))(
  '%s',
  (_id, compiled) => {
    it('generates only inputs the scenario accepts', () => {
      fc.assert(
        fc.property(inputsArbitrary(compiled), (inputs) => {
          expect(compiled.inputs.validate(inputs)).toEqual([]);
        }),
        { numRuns: runs },
      );
    });

    it('ends every random trace in a final state, with invariants and the hash chain intact', async () => {
      await fc.assert(
        fc.asyncProperty(
          inputsArbitrary(compiled),
          signalPlanArbitrary(),
          fc.nat(),
          async (inputs, plan, seed) => {
            const trace = await runTrace(compiled, inputs, plan, `seed-${seed}`);
            expect(traceViolations(compiled, trace), trace.log.join('\n')).toEqual([]);
          },
        ),
        { numRuns: runs },
      );
    });

    it('gives the same lifecycle hash chain head for the same seed, inputs and signals', async () => {
      await fc.assert(
        fc.asyncProperty(
          inputsArbitrary(compiled),
          signalPlanArbitrary({ maxActions: 15 }),
          fc.nat(),
          async (inputs, plan, seed) => {
            const first = await runTrace(compiled, inputs, plan, `seed-${seed}`);
            const second = await runTrace(compiled, inputs, plan, `seed-${seed}`);
            expect(second.run.evidence.chain_head).toBe(first.run.evidence.chain_head);
            expect(JSON.stringify(second.records)).toBe(JSON.stringify(first.records));
          },
        ),
        { numRuns: Math.max(5, Math.floor(runs / 4)) },
      );
    });

    it('reaches completion on the happy path', async () => {
      const happy = happyPathPlan();
      const trace = await runTrace(compiled, compiled.definition.example_inputs, happy, 'happy');
      expect(trace.run.status, trace.log.join('\n')).toBe('completed');
    });
  },
);

describe('traceViolations', () => {
  it('reports a then-step that starts before its before-step completed', async () => {
    const compiled = scenarios.find((scenario) => scenario.definition.invariants.length > 0)!;
    const invariant = compiled.definition.invariants[0]!;
    const trace = await runTrace(
      compiled,
      compiled.definition.example_inputs,
      happyPathPlan(),
      'tamper',
    );
    expect(traceViolations(compiled, trace)).toEqual([]);
    // Drop every record that completes the first before-step: the then-step now starts too early.
    const records = trace.records.filter(
      (record) =>
        !(
          record.step === invariant.before[0] &&
          !record.type.endsWith('requested') &&
          !record.type.endsWith('started')
        ),
    );
    const violations = traceViolations(compiled, { ...trace, records });
    expect(violations.some((violation) => violation.startsWith(`invariant ${invariant.id}`))).toBe(
      true,
    );
    expect(violations.some((violation) => violation.startsWith('hash chain'))).toBe(true);
  });
});
