import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadScenario, type ProblemCode } from '../src/index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/broken/${name}`, import.meta.url), 'utf8');

/** [code, line, column] of every problem, in order. */
type Expected = readonly (readonly [ProblemCode, number, number])[];

const cases: readonly (readonly [string, string, Expected])[] = [
  ['yaml-syntax.yaml', 'a YAML syntax error', [['yaml_syntax', 7, 1]]],
  ['duplicate-key.yaml', 'a key twice in one mapping', [['duplicate_key', 4, 1]]],
  [
    'schema.yaml',
    'every schema problem, plus what the valid steps still reveal',
    [
      ['missing_field', 1, 1], // summary
      ['invalid_value', 1, 11], // scenario not kebab-case
      ['invalid_value', 4, 9], // family
      ['unknown_field', 6, 1], // colour
      ['missing_field', 15, 9], // approval without expires
      ['invalid_value', 19, 17], // quorum: two
      ['invalid_value', 21, 15], // kind: teleport
      ['invalid_value', 28, 18], // timeout: 15 minutes
      ['unknown_field', 34, 9], // on_fail on a wait
      ['unknown_party', 38, 16], // messenger, found after salvaging the broken steps
    ],
  ],
  [
    'references.yaml',
    'names that point nowhere',
    [
      ['dangling_reference', 21, 11], // control step
      ['review_required', 29, 16],
      ['dangling_reference', 29, 32], // missing_rule
      ['unknown_party', 33, 26], // auditors
      ['dangling_reference', 35, 20], // on_reject: refund
      ['invalid_party_kind', 42, 16], // handoff to an operator
      ['dangling_reference', 45, 21], // compensate: reverse_pay
      ['duplicate_id', 46, 13], // approve
    ],
  ],
  [
    'flow.yaml',
    'unreachable steps, loops that never wait, unused compensations',
    [
      ['unreachable_step', 21, 9],
      ['infinite_loop', 32, 9],
      ['unreachable_step', 44, 5],
    ],
  ],
  [
    'expressions.yaml',
    'CEL errors positioned inside the expression',
    [
      ['invalid_expression', 18, 11], // Money <= int
      ['invalid_expression', 22, 19], // inputs.amout, inside a quoted scalar
      ['invalid_expression', 34, 26], // unfinished expression in a block scalar
      ['invalid_expression', 39, 15], // a condition that is an int
    ],
  ],
  ['inputs.yaml', 'an input schema ajv refuses', [['invalid_input_schema', 10, 21]]],
  [
    'example-inputs.yaml',
    'example inputs that fail the schema',
    [
      ['invalid_example_inputs', 15, 3],
      ['invalid_example_inputs', 15, 11],
      ['invalid_example_inputs', 16, 10],
    ],
  ],
  [
    'invariants.yaml',
    'invariants that name unknown steps or that a path breaks',
    [
      ['invariant_violated', 15, 5],
      ['invariant_unknown_step', 21, 14],
    ],
  ],
  [
    'invariant-precedence.yaml',
    'a precedence invariant an approval timeout breaks',
    [['invariant_violated', 16, 5]],
  ],
  [
    'invariant-exclusion.yaml',
    'an exclusion invariant a payment return breaks',
    [['invariant_violated', 15, 5]],
  ],
  [
    'invariant-response.yaml',
    'a response invariant a skipped reconciliation breaks',
    [['invariant_violated', 15, 5]],
  ],
  [
    'invariant-approval.yaml',
    'approval invariants a lowered quorum, a check and a missing maker-checker break',
    [
      ['invariant_violated', 16, 5],
      ['invariant_violated', 16, 5],
      ['invariant_violated', 21, 5],
    ],
  ],
  [
    'invariant-shapes.yaml',
    'invariants of two kinds, of a kind missing a field, with an unknown field, too short',
    [
      ['invalid_value', 12, 5], // before/then mixed with never_together
      ['missing_field', 17, 5], // after without eventually
      ['unknown_field', 24, 5], // colour
      ['invalid_value', 27, 21], // never_together with one step
    ],
  ],
  [
    'legs.yaml',
    'money legs on unknown steps, with duplicate ids or mistyped expressions',
    [
      ['leg_unknown_step', 32, 11], // payy
      ['invalid_expression', 34, 13], // amount is a string, not Money
      ['invalid_expression', 35, 15], // EUR without quotes is a variable
      ['duplicate_id', 36, 9], // payer_debit again
      ['invalid_expression', 40, 15], // currency is an int
      ['invalid_value', 43, 16], // direction: sideways
    ],
  ],
];

describe('broken scenarios report every problem with its position', () => {
  it.each(cases)('%s: %s', (name, _why, expected) => {
    const result = loadScenario(fixture(name));
    expect(result.ok).toBe(false);
    const actual = result.problems.map((problem) => [problem.code, problem.line, problem.column]);
    expect(actual, result.problems.map(formatProblem).join('\n')).toEqual(expected);
  });

  it('explains problems in words a scenario author can act on', () => {
    const messages = (name: string) =>
      loadScenario(fixture(name)).problems.map((problem) => problem.message);
    expect(messages('references.yaml')).toContain(
      'party "auditors" is not declared under parties (bank, ops)',
    );
    expect(messages('invariants.yaml')[0]).toBe(
      'invariant "screened_first": "transfer" can start before "screen" completes: screen → transfer (after screen: skip)',
    );
    expect(messages('invariant-precedence.yaml')).toEqual([
      'invariant "released_before_payout": "pay" can start before "release" completes: hold → release → pay (after release: timeout)',
    ]);
    expect(messages('invariant-exclusion.yaml')).toEqual([
      'invariant "refund_or_payout": "pay" and "refund" can both complete in one run: pay → confirm_credit → refund (after confirm_credit: reject)',
    ]);
    expect(messages('invariant-response.yaml')).toEqual([
      'invariant "reconciled_after_mint": after "mint" completes, the run can end complete without completing "reconcile" (runs ending fault, compensate or cancel are exempt): mint → deliver → reconcile → complete (after reconcile: skip)',
    ]);
    expect(messages('invariant-approval.yaml')).toEqual([
      'invariant "two_checkers": "release" completes with 1 approver (its quorum), fewer than 2: limits → submit → release',
      'invariant "two_checkers": "limits" is a check step, which no quorum of approvers completes: limits',
      'invariant "checker_not_maker": "release" lets someone who approved an earlier step approve it (maker_checker is not set): limits → submit → release',
    ]);
    expect(messages('invariant-shapes.yaml').slice(0, 2)).toEqual([
      'an invariant has the fields of one kind: precedence (before + then), exclusion (never_together), response (after + eventually) or approval (approved + by_at_least); this one mixes precedence and exclusion',
      'eventually is required',
    ]);
    expect(messages('legs.yaml').slice(0, 5)).toEqual([
      'leg "payee_credit" names step "payy", which is neither a step of a stage nor a compensation',
      'leg amount must be Money (wrap a decimal string in money(…)), but this is string',
      'Unknown variable: EUR',
      'leg id "payer_debit" is already used on line 26',
      "leg currency must be a string (a literal needs quotes, e.g. 'EUR'), but this is int",
    ]);
    expect(messages('flow.yaml')[1]).toContain('spin_a → spin_b → spin_a never waits');
    expect(messages('expressions.yaml')[1]).toBe('No such key: amout');
    expect(messages('inputs.yaml')[0]).toBe(
      '/properties/amount/type must be one of array, boolean, integer, null, number, object, string',
    );
  });

  it('formats problems as file:line:column: code message', () => {
    const result = loadScenario(fixture('duplicate-key.yaml'), {
      file: 'scenarios/duplicate-key@v1.yaml',
    });
    expect(result.problems.map(formatProblem)).toEqual([
      'scenarios/duplicate-key@v1.yaml:4:1: duplicate_key key appears twice in the same mapping',
    ]);
  });

  it('requires the file name to be the scenario id', () => {
    const text = fixture('inputs.yaml').replace('{ type: strng }', '{ type: string }');
    expect(loadScenario(text, { file: 'scenarios/inputs@v1.yaml' }).ok).toBe(true);
    const misnamed = loadScenario(text, { file: 'scenarios/inputs.yaml' });
    expect(
      misnamed.problems.map((problem) => [problem.code, problem.line, problem.column]),
    ).toEqual([['file_name_mismatch', 1, 11]]);
  });
});
