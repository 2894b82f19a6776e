import { describe, expect, it } from 'vitest';
import { compile, compileInputSchema, INPUT_FORMATS } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  EngineError,
  type Scope,
} from '@programrun/engine';
import {
  CheckError,
  fc,
  FORMAT_ARBITRARIES,
  FORMAT_NEAR_MISSES,
  inputsArbitrary,
  invalidInputsArbitrary,
  loadCompiledScenario,
} from '../src/index.js';
import { repositoryScenarios } from './scenarios.js';

const scenarios = [
  ...(await repositoryScenarios()),
  await loadCompiledScenario(new URL('./fixtures/supplier-payout@v1.yaml', import.meta.url)),
];
const scope: Scope = { account: 'acct_near_miss', environment: 'test' };
const numRuns = 60;

describe.each(scenarios.map((compiled) => [compiled.id, compiled] as const))(
  'inputs of %s',
  (_id, compiled) => {
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [compiled],
      testClock: createVirtualClock(),
    });
    const create = (inputs: unknown) =>
      engine.createRun(scope, { scenario_id: compiled.id, inputs }).then(
        () => undefined,
        (error: unknown) => error,
      );

    it('the engine refuses every near miss with invalid_inputs at the broken field', async () => {
      await fc.assert(
        fc.asyncProperty(invalidInputsArbitrary(compiled), async ({ inputs, pointer, breaks }) => {
          const error = await create(inputs);
          expect(error, `${breaks} at ${pointer}`).toBeInstanceOf(EngineError);
          expect((error as EngineError).code).toBe('invalid_inputs');
          expect((error as EngineError).issues.map((issue) => issue.pointer)).toContain(
            `/inputs${pointer}`,
          );
        }),
        { numRuns },
      );
    });

    it('the engine accepts every generated valid input', async () => {
      await fc.assert(
        fc.asyncProperty(inputsArbitrary(compiled), async (inputs) => {
          expect(await create(inputs)).toBeUndefined();
        }),
        { numRuns },
      );
    });

    it('breaks every required field and adds an unknown one', () => {
      const schema = compiled.definition.inputs as { required?: string[] };
      const broken = fc
        .sample(invalidInputsArbitrary(compiled), { numRuns: 1500, seed: 1 })
        .map(({ pointer, breaks }) => `${pointer} ${breaks}`);
      for (const name of schema.required ?? [])
        expect(broken).toContain(`/${name} missing required field`);
      expect(broken).toContain('/unexpected_input property the schema does not allow');
    });
  },
);

describe('near-miss values', () => {
  it('fail their format for any valid value of it', () => {
    for (const [format, nearMisses] of Object.entries(FORMAT_NEAR_MISSES)) {
      const validator = compileInputSchema({
        type: 'object',
        properties: { value: { type: 'string', format } },
      });
      const valid = FORMAT_ARBITRARIES[format];
      const samples = valid ? fc.sample(valid, { numRuns: 50, seed: 3 }) : [undefined];
      for (const sample of [undefined, ...samples]) {
        for (const { breaks, value } of nearMisses(sample)) {
          expect(
            validator.validate({ value }),
            `${format}: ${breaks} (${String(value)})`,
          ).not.toEqual([]);
        }
      }
    }
  });

  it('cover every programrun format', () => {
    expect(Object.keys(FORMAT_NEAR_MISSES)).toEqual(
      expect.arrayContaining(Object.keys(INPUT_FORMATS)),
    );
  });

  it('include money with 3 decimals and negative money', () => {
    expect(FORMAT_NEAR_MISSES.money!('125.00').map(({ value }) => value)).toEqual(
      expect.arrayContaining(['125.005', '-125.00']),
    );
  });
});

it('refuses to build near misses for a schema with nothing to break', () => {
  const compiled = compile(
    `scenario: open-inputs
version: v1
title: Open inputs
summary: Inputs without constraints.
family: bank_payout
asset_track: public_demo
inputs: { type: object, properties: { note: {} } }
example_inputs: {}
parties:
  ops: { name: Operations, role: operations, kind: operator }
stages:
  - id: only
    title: Only
    steps:
      - { id: approve, kind: approval, title: Approve, approvers: [ops], expires: PT1H }
`,
  );
  expect(() => invalidInputsArbitrary(compiled)).toThrow(CheckError);
  expect(() => invalidInputsArbitrary(compiled)).toThrow(/nothing to break/);
});
