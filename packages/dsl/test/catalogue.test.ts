import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compile,
  formatProblem,
  isPrecedenceInvariant,
  loadScenario,
  scenarioJsonSchema,
  type LoadedScenario,
} from '../src/index.js';

const directory = new URL('../../../scenarios/', import.meta.url);
const files = readdirSync(directory)
  .filter((name) => name.endsWith('.yaml'))
  .sort();
const texts = new Map(files.map((name) => [name, readFileSync(new URL(name, directory), 'utf8')]));

function load(name: string): LoadedScenario {
  const result = loadScenario(texts.get(name)!, { file: `scenarios/${name}` });
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  return result.scenario;
}

describe('the scenario catalogue (golden fixtures of the compiler)', () => {
  it('holds the seven published scenarios', () => {
    expect(files).toEqual([
      'bank-payout@v1.yaml',
      'bridge-routing@v1.yaml',
      'qr-merchant-settlement@v1.yaml',
      'reserve-usd-cycle@v1.yaml',
      'sukuk-servicing@v1.yaml',
      'treasury-conversion@v1.yaml',
      'wallet-delivery@v1.yaml',
    ]);
  });

  describe.each(files)('%s', (name) => {
    it('compiles without problems and points editors at the schema', () => {
      const loaded = load(name);
      const compiled = compile(loaded);
      expect(compiled.id).toBe(name.replace(/\.yaml$/, ''));
      expect(compiled.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(texts.get(name)!.split('\n')[0]).toBe(
        '# yaml-language-server: $schema=./scenario.schema.json',
      );
    });

    it('models a believable flow: appointed parties, inputs, policy, an approval, a handoff, a failure path', () => {
      const { definition, graph } = load(name);
      const parties = Object.values(definition.parties);
      expect(parties.some((party) => party.kind === 'appointed')).toBe(true);
      expect(
        Object.keys((definition.inputs as { properties?: object }).properties ?? {}).length,
      ).toBeGreaterThan(0);
      expect(definition.policy.length).toBeGreaterThan(0);
      const kinds = new Set([...graph.steps.values()].map((step) => step.kind));
      expect(kinds).toContain('approval');
      expect(kinds).toContain('handoff');
      const failurePaths = [...graph.steps.values()].flatMap((step) =>
        step.outgoing.filter(
          (edge) =>
            edge.kind !== 'success' &&
            edge.kind !== 'route' &&
            edge.kind !== 'skip' &&
            edge.to !== 'fault',
        ),
      );
      const explicitFaults = [...graph.steps.values()].some((step) =>
        step.outgoing.some((edge) => edge.kind !== 'success' && edge.to === 'fault'),
      );
      expect(failurePaths.length > 0 || explicitFaults).toBe(true);
    });

    it('has a digest that ignores comments and layout but not content', () => {
      const text = texts.get(name)!;
      const digest = load(name).digest;
      // Comments between top-level keys change the text, not the parsed definition.
      const reformatted = loadScenario(text.replace(/^(\w)/gm, '# a comment\n\n$1'));
      expect(reformatted.ok && reformatted.scenario.digest).toBe(digest);
      const changed = loadScenario(text.replace(/^title: (.*)$/m, 'title: $1 (changed)'));
      expect(changed.ok && changed.scenario.digest).not.toBe(digest);
    });
  });

  it('wallet-delivery@v1: public demo track, amount and a checksummed address required', () => {
    const { definition } = load('wallet-delivery@v1.yaml');
    expect(definition.asset_track).toBe('public_demo');
    expect((definition.inputs as { required: string[] }).required).toEqual(
      expect.arrayContaining(['amount', 'destination_wallet_address']),
    );
    const validator = load('wallet-delivery@v1.yaml').inputs;
    const base = {
      amount: '10.00',
      destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    };
    expect(validator.validate(base)).toEqual([]);
    for (const amount of ['10', '10.5', '0.00', '-1.00', 10]) {
      expect(validator.validate({ ...base, amount }).map((issue) => issue.pointer)).toEqual([
        '/amount',
      ]);
    }
    expect(
      validator.validate({
        ...base,
        destination_wallet_address: base.destination_wallet_address.toLowerCase(),
      }),
    ).toHaveLength(1);
  });

  it('qr-merchant-settlement@v1: six stages in order, corridor resolved before any scheme call', () => {
    const { definition } = load('qr-merchant-settlement@v1.yaml');
    expect(definition.stages.map((stage) => [stage.id, stage.title])).toEqual([
      ['corridor_setup', 'Corridor setup'],
      ['scheme_routing', 'Scheme routing'],
      ['customer_approval', 'Customer approval'],
      ['posting', 'Posting'],
      ['merchant_close', 'Merchant close'],
      ['reconciliation', 'Reconciliation'],
    ]);
    const corridorSteps = definition.stages[0]!.steps.map((step) => step.id);
    const invariant = definition.invariants
      .filter(isPrecedenceInvariant)
      .find((item) => item.then.includes('arm_scheme_call'));
    expect(invariant).toBeDefined();
    expect(invariant!.before.length).toBeGreaterThanOrEqual(3);
    for (const step of invariant!.before) expect(corridorSteps).toContain(step);
  });

  it('reserve-usd-cycle@v1: restricted, 3–10 business days, reserve recognition before every mint and release', () => {
    const { definition, graph } = load('reserve-usd-cycle@v1.yaml');
    expect(definition.asset_track).toBe('restricted');
    expect(definition.duration).toEqual({ min: 'P3D', max: 'P10D', calendar: 'business' });
    expect(definition.stages.map((stage) => stage.title)).toEqual([
      'Reserve setup',
      'Mint and release',
      'Market execution',
      'Redeem, burn and payout',
    ]);
    const mintsAndReleases = [...graph.steps.values()]
      .filter(
        (step) =>
          step.kind === 'handoff' &&
          /^(token\.mint|.*release)/.test(String((step.definition as { action?: string }).action)),
      )
      .map((step) => step.id);
    const invariant = definition.invariants
      .filter(isPrecedenceInvariant)
      .find((item) => item.then.some((step) => mintsAndReleases.includes(step)));
    expect(invariant).toBeDefined();
    expect(invariant!.then).toEqual(
      expect.arrayContaining(
        mintsAndReleases.filter((id) => graph.steps.get(id)!.stage !== 'redeem_burn_payout'),
      ),
    );
  });

  it('sukuk-servicing@v1: Shariah board approval and screening are controls', () => {
    const { definition, graph } = load('sukuk-servicing@v1.yaml');
    const shariah = definition.controls.filter((control) => control.category === 'shariah');
    expect(shariah.length).toBeGreaterThanOrEqual(2);
    const kinds = shariah.map((control) => graph.steps.get(control.step)!.kind);
    expect(kinds).toEqual(expect.arrayContaining(['approval', 'check']));
    expect(Object.values(definition.parties).some((party) => party.role === 'shariah_board')).toBe(
      true,
    );
  });

  it('ships the JSON Schema generated from the zod schema', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(
      committed,
      'scenarios/scenario.schema.json is stale: run pnpm --filter @programrun/dsl generate:json-schema',
    ).toEqual(scenarioJsonSchema());
  });
});
