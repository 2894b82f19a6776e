import { describe, expect, it } from 'vitest';
import { compile, formatProblem, loadScenario } from '../src/index.js';
import { Driver } from './driver.js';

const FILE = 'scenarios/bounded-test@v1.yaml';

/** A scenario with the given input properties and steps, each line where the test says. */
function scenario(inputs: string, steps: string, extra = ''): string {
  return `scenario: bounded-test
version: v1
title: Bounded test
summary: A scenario built for one test.
family: bank_payout
asset_track: public_demo
inputs:
  type: object
  properties:
${inputs}
example_inputs: {}
parties:
  bank: { name: Bank, role: banking }
${extra}stages:
  - id: intake
    title: Intake
    steps:
${steps}`;
}

const problemsOf = (text: string): string[] => {
  const result = loadScenario(text, { file: FILE });
  return result.ok ? [] : result.problems.map(formatProblem);
};

const timed = <T>(work: () => T): { ms: number; value: T } => {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
};

const NOTE_STEP = (data: string) => `      - id: note
        kind: record
        title: Note
        record: note
        data: { ${data} }
`;

describe('regular expressions are RE2, refused at load time otherwise', () => {
  it('points at the lookahead inside an input pattern (file:line:column)', () => {
    const text = scenario(
      "    reference: { type: string, pattern: '^(?=INV)[A-Z0-9-]+$' }",
      NOTE_STEP('ok: "true"'),
    );
    // Line 10 is the property; the pattern's quote is at column 41, `(?=` at column 43.
    expect(problemsOf(text)).toEqual([
      `${FILE}:10:43: unsupported_regex pattern "^(?=INV)[A-Z0-9-]+$" uses lookahead \`(?=…)\`, which the RE2 dialect does not have (no lookaround, no backreferences: matching always takes linear time)`,
    ]);
  });

  it('points at a backreference in a patternProperties key', () => {
    const text = scenario(
      `    tags:
      type: object
      patternProperties:
        '^(x)\\1$': { type: string }`,
      NOTE_STEP('ok: "true"'),
    );
    // The key's quote is at column 9 of line 13; `\1` is 4 characters into the pattern.
    expect(problemsOf(text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${FILE}:13:14: unsupported_regex pattern "\\^\\(x\\)\\\\\\\\1\\$" uses backreference`,
        ),
      ),
    ]);
  });

  it('points at the lookbehind inside a literal matches() pattern', () => {
    const text = scenario(
      '    reference: { type: string }',
      NOTE_STEP('ok: \'inputs.reference.matches("(?<=INV)-[0-9]+")\''),
    );
    // `data: { ok: '…` puts the expression at column 22; `(?<=` is 26 characters in.
    expect(problemsOf(text)).toEqual([
      expect.stringMatching(
        new RegExp(`^${FILE}:22:48: unsupported_regex matches\\(\\) pattern .* uses lookbehind`),
      ),
    ]);
  });

  it('answers a catastrophic matches() on 31+ characters in milliseconds', () => {
    const run = () =>
      new Driver(
        `stages:
  - id: intake
    title: Intake
    steps:
      - id: note
        kind: record
        title: Note
        record: note
        data: { ok: 'inputs.reference.matches("^(a+)+$")', own: 'inputs.reference.matches(inputs.pattern)' }
`,
        { reference: 'a'.repeat(31) + '!', pattern: '^(a|aa)+$' },
        '{ type: object, properties: { reference: { type: string }, pattern: { type: string } } }',
      );
    const { ms, value } = timed(run);
    expect(value.result.snapshot.context.records.note).toEqual({ ok: false, own: false });
    expect(ms).toBeLessThan(500);
  });

  it('faults with expression_error on a pattern from the inputs that RE2 refuses', () => {
    const run = new Driver(
      `stages:
  - id: intake
    title: Intake
    steps:
      - { id: note, kind: record, title: Note, record: note, data: { ok: 'inputs.reference.matches(inputs.pattern)' } }
`,
      { reference: 'INV-1', pattern: '(?=INV)' },
      '{ type: object, properties: { reference: { type: string }, pattern: { type: string } } }',
    );
    expect(run.state.ending).toMatchObject({ reason: 'expression_error' });
    expect(run.state.ending?.message).toContain('uses lookahead');
  });
});

describe('the static cost of expressions', () => {
  const lists = (maxItems: string) =>
    ['a', 'b', 'c']
      .map((name) => `    ${name}: { type: array, items: { type: integer }${maxItems} }`)
      .join('\n');
  const nested = NOTE_STEP(
    "sums: 'inputs.a.all(x, inputs.b.all(y, inputs.c.all(z, x + y + z >= 0)))'",
  );

  it('refuses three nested comprehensions over 1,000-element lists (the finding)', () => {
    // The expression starts at column 24 of line 24, with the outermost list.
    expect(problemsOf(scenario(lists(', maxItems: 1000'), nested))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${FILE}:24:24: expression_budget_exceeded this expression may take [0-9,]+ evaluation steps, more than the budget of 100,000: inputs\\.a \\(1,000\\) × inputs\\.b \\(1,000\\) × inputs\\.c \\(1,000\\)`,
        ),
      ),
    ]);
  });

  it('refuses nested comprehensions over input lists without maxItems', () => {
    const problems = problemsOf(scenario(lists(''), nested));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(
      `${FILE}:24:24: unbounded_expression inputs.a has no maxItems (or maxProperties) in the input schema and is iterated in nested comprehensions with inputs.b, whose size is open too: the cost grows with the square of the inputs or faster; declare maxItems so it can be checked against the budget of 100,000 steps`,
    );
    expect(problems[1]).toMatch(/^.*:24:40: unbounded_expression inputs\.b has no maxItems/);
    expect(problems[2]).toMatch(/^.*:24:56: unbounded_expression inputs\.c has no maxItems/);
  });

  it('follows iteration variables into the schema of list elements', () => {
    const orders = (maxLines: string) =>
      `    orders:
      type: array
      maxItems: 100
      items: { type: object, properties: { lines: { type: array${maxLines}, items: { type: string } } } }`;
    const step = NOTE_STEP('ok: \'inputs.orders.all(o, o.lines.all(l, l != ""))\'');
    expect(problemsOf(scenario(orders(', maxItems: 50'), step))).toEqual([]);
    // Every line is read once: linear in the inputs, left to the run-time budget.
    expect(problemsOf(scenario(orders(''), step))).toEqual([]);
    expect(problemsOf(scenario(orders(', maxItems: 5000'), step))).toEqual([
      expect.stringContaining('inputs.orders (100) × o.lines (5,000)'),
    ]);
  });

  it('loads nested comprehensions whose declared sizes fit the budget', () => {
    expect(problemsOf(scenario(lists(', maxItems: 15'), nested))).toEqual([]);
    // One level over an unbounded list is linear in the inputs: checked when it runs.
    expect(problemsOf(scenario(lists(''), NOTE_STEP("ok: 'inputs.a.all(x, x >= 0)'")))).toEqual([]);
  });
});

describe('the evaluation budget at run time', () => {
  // `rows` has no type: the schema cannot bound it, so only the run-time budget can.
  const schema =
    '{ type: object, properties: { rows: { description: Anything }, flag: { type: boolean } } }';
  const thousand = Array.from({ length: 1000 }, (_, index) => index);
  const hostile = 'inputs.rows.all(x, inputs.rows.all(y, inputs.rows.all(z, x + y + z >= 0)))';

  const body = (step: string) => `stages:
  - id: intake
    title: Intake
    steps:
${step}`;

  it.each([
    ['a record field', NOTE_STEP(`sums: '${hostile}'`)],
    [
      'a when',
      `      - { id: note, kind: record, title: Note, record: note, when: '${hostile}', data: {} }\n`,
    ],
    [
      'a route alternative',
      `      - id: choose
        kind: route
        title: Choose
        alternatives:
          - { id: first, when: 'inputs.flag', reason: Flag }
          - { id: second, when: '${hostile}', reason: Rows }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: pay, timeout: PT1H }
`,
    ],
  ])('faults with expression_budget_exceeded from %s, within milliseconds', (_where, step) => {
    const { ms, value: run } = timed(() => new Driver(body(step), { rows: thousand }, schema));
    expect(run.state).toMatchObject({
      status: 'faulted',
      ending: { reason: 'expression_budget_exceeded' },
    });
    expect(run.state.ending?.message).toContain(
      'expression_budget_exceeded: the expression took more than 100,000 evaluation steps',
    );
    expect(run.facts).toContain('run.faulted:' + run.state.ending!.step);
    expect(ms).toBeLessThan(1_000);
  });

  it('faults a check whose rule runs out of steps instead of taking on_fail', () => {
    const text = `policy:
  - { id: rows_ok, when: '${hostile}', otherwise: deny, description: Rows are fine }
${body(`      - { id: screen, kind: check, title: Screen, rules: [rows_ok], on_fail: compensate }
      - { id: pay, kind: handoff, title: Pay, party: bank, action: pay, timeout: PT1H }
`)}`;
    const run = new Driver(text, { rows: thousand }, schema);
    expect(run.state.ending).toMatchObject({
      step: 'screen',
      reason: 'expression_budget_exceeded',
      message: expect.stringContaining('rows_ok: expression_budget_exceeded'),
    });
  });

  it('counts a list read by `in` and is not fooled by exists() skipping errors', () => {
    const membership = new Driver(
      body(NOTE_STEP("ok: 'inputs.rows.all(x, inputs.rows.all(y, y in inputs.rows))'")),
      { rows: thousand },
      schema,
    );
    expect(membership.state.ending?.reason).toBe('expression_budget_exceeded');
    // exists() ignores elements whose predicate fails; the budget still ends the run.
    const swallowing = new Driver(
      body(
        NOTE_STEP(
          "ok: 'inputs.rows.exists(x, inputs.rows.exists(y, inputs.rows.exists(z, x + y + z < 0)) || x == 999)'",
        ),
      ),
      { rows: thousand },
      schema,
    );
    expect(swallowing.state.ending?.reason).toBe('expression_budget_exceeded');
  });

  it('runs the same expression over small lists', () => {
    const run = new Driver(body(NOTE_STEP(`sums: '${hostile}'`)), { rows: [1, 2, 3] }, schema);
    expect(run.state.status).toBe('completed');
    expect(run.result.snapshot.context.records.note).toEqual({ sums: true });
  });

  it('loads the hostile scenario: the budget is what stops it', () => {
    expect(() =>
      compile(scenario('    rows: { description: Anything }', NOTE_STEP(`sums: '${hostile}'`))),
    ).not.toThrow();
  });
});
