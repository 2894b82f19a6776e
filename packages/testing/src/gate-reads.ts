// What a scenario's conditions compare, read from their CEL sources: the handoff data
// fields a rule or guard reads, and the money literals amounts are held against. The
// checker generates inputs and partner answers on both sides of these.
import type { CompiledScenario } from '@programrun/dsl';

/** The handoff data fields and money literals a scenario's conditions read. */
export interface GateReads {
  /** `handoffs.<step>.data.<field>` read by a condition: step → fields, in source order. */
  readonly handoffFields: ReadonlyMap<string, readonly string[]>;
  /** Decimal literals of `money("…")` in conditions, ascending, each once. */
  readonly moneyLiterals: readonly string[];
  /**
   * String literals an input is compared with (`inputs.currency == "EUR"`,
   * `inputs.currency in ["EUR", "GBP"]`): field → literals, in source order.
   */
  readonly inputLiterals: ReadonlyMap<string, readonly string[]>;
  /**
   * Money literals a condition compares a handoff data field with (the field and the
   * literal in the same condition, e.g. a price band): field → literals, ascending.
   */
  readonly fieldLiterals: ReadonlyMap<string, readonly string[]>;
  /**
   * Handoff data fields a condition reads only through a record computed from them (a
   * reserve balance against a supply the record adds up): rules on them are crossed by
   * extreme values rather than by a cent.
   */
  readonly recordedFields: readonly string[];
  /**
   * Inputs a condition compares a handoff data field with (the field and `inputs.<name>`
   * in the same condition, e.g. a balance that must cover the amount): field → inputs.
   */
  readonly fieldInputs: ReadonlyMap<string, readonly string[]>;
  /**
   * Shares of an input a condition compares a handoff data field with (`fee <=
   * multiply(money(inputs.amount), money("0.005"), 5)`, a tolerance): field → shares.
   */
  readonly fieldShares: ReadonlyMap<string, readonly InputShare[]>;
  /**
   * Handoff data fields a condition adds up to an input (`received + fee == amount`, a
   * reconciliation): field → the other field of the sum and the input, so one can move
   * while the other keeps the sum.
   */
  readonly fieldSums: ReadonlyMap<string, readonly FieldSum[]>;
}

/** An input's value times a literal factor (a tolerance of the amount). */
export interface InputShare {
  readonly input: string;
  readonly factor: string;
}

/** The other field of a two-field sum a condition holds equal to an input. */
export interface FieldSum {
  readonly field: string;
  readonly input: string;
}

interface Conditional {
  readonly when?: string;
  readonly alternatives?: readonly { readonly when: string }[];
}

const HANDOFF_FIELD = /\bhandoffs\.([A-Za-z_][A-Za-z0-9_]*)\.data\.([A-Za-z_][A-Za-z0-9_]*)/g;
const INPUT_COMPARED =
  /\binputs\.([A-Za-z_][A-Za-z0-9_]*)\s*(?:==|!=)\s*"([^"\\]*)"|"([^"\\]*)"\s*(?:==|!=)\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)/g;
const INPUT_IN_LIST = /\binputs\.([A-Za-z_][A-Za-z0-9_]*)\s+in\s+\[([^\]]*)\]/g;
const INPUT_FIELD = /\binputs\.([A-Za-z_][A-Za-z0-9_]*)/g;
const STRING_LITERAL = /"([^"\\]*)"/g;
const MONEY_LITERAL = /\bmoney\(\s*(?:"([0-9]+(?:\.[0-9]+)?)"|'([0-9]+(?:\.[0-9]+)?)')\s*\)/g;

/** Every condition's source: policy rules, step `when`s and route alternatives. */
function conditionSources(compiled: CompiledScenario): string[] {
  const { policy, stages, compensations } = compiled.definition;
  const steps = [
    ...stages.flatMap((stage) => stage.steps),
    ...compensations,
  ] as readonly Conditional[];
  return [
    ...policy.map((rule) => rule.when),
    ...steps.flatMap((step) => [
      ...(step.when === undefined ? [] : [step.when]),
      ...(step.alternatives ?? []).map((alternative) => alternative.when),
    ]),
  ];
}

/** The data expressions of each record step, by step id. */
function recordSources(compiled: CompiledScenario): Map<string, string[]> {
  const steps = compiled.definition.stages.flatMap((stage) => stage.steps) as readonly {
    readonly id: string;
    readonly kind: string;
    readonly data?: Readonly<Record<string, string>>;
  }[];
  return new Map(
    steps
      .filter((step) => step.kind === 'record' && step.data !== undefined)
      .map((step) => [step.id, Object.values(step.data!)]),
  );
}

const MONEY_OF_INPUT = String.raw`money\(\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*\)`;
const MONEY_OF_LITERAL = String.raw`money\(\s*"([0-9]+(?:\.[0-9]+)?)"\s*\)`;
const MONEY_OF_FIELD = String.raw`money\(\s*handoffs\.[A-Za-z_][A-Za-z0-9_]*\.data\.([A-Za-z_][A-Za-z0-9_]*)\s*\)`;
/** `multiply(money(inputs.x), money("f")` or with the factor first. */
const INPUT_SHARE = new RegExp(
  String.raw`multiply\(\s*(?:${MONEY_OF_INPUT}\s*,\s*${MONEY_OF_LITERAL}|${MONEY_OF_LITERAL}\s*,\s*${MONEY_OF_INPUT})`,
  'g',
);
/** `money(a) + money(b) == money(inputs.x)` or the input first. */
const FIELD_SUM = new RegExp(
  String.raw`${MONEY_OF_FIELD}\s*\+\s*${MONEY_OF_FIELD}\s*==\s*${MONEY_OF_INPUT}|${MONEY_OF_INPUT}\s*==\s*${MONEY_OF_FIELD}\s*\+\s*${MONEY_OF_FIELD}`,
  'g',
);

const RECORD_READ = /\brecords\.([A-Za-z_][A-Za-z0-9_]*)/g;

/** The record steps a CEL source reads (`records.<step>…`), in source order. */
export const recordsRead = (source: string): string[] =>
  [...source.matchAll(RECORD_READ)].map(([, step]) => step!);

const compareDecimals = (left: string, right: string): number =>
  Number(left) - Number(right) || left.localeCompare(right);

/**
 * The handoff data fields and money literals a scenario's conditions (policy rules, step
 * guards, route alternatives) read, found in their CEL sources.
 *
 * @example
 * ```ts
 * const reads = gateReads(compiled);
 * reads.handoffFields.get('hold_funds'); // ['held_amount']
 * reads.moneyLiterals; // ['50000.00', '100000.00', '1000000.00']
 * reads.inputLiterals.get('currency'); // ['EUR', 'GBP', 'USD']
 * ```
 */
export function gateReads(compiled: CompiledScenario): GateReads {
  const handoffFields = new Map<string, string[]>();
  const literals = new Set<string>();
  const inputLiterals = new Map<string, string[]>();
  const compared = (field: string, literal: string): void => {
    const values = inputLiterals.get(field) ?? [];
    if (!values.includes(literal)) values.push(literal);
    inputLiterals.set(field, values);
  };
  const fieldLiterals = new Map<string, Set<string>>();
  const fieldInputs = new Map<string, string[]>();
  const recorded = recordSources(compiled);
  const recordedFields = new Set<string>();
  const fieldShares = new Map<string, InputShare[]>();
  const fieldSums = new Map<string, FieldSum[]>();
  const sum = (field: string, other: string, input: string): void => {
    const sums = fieldSums.get(field) ?? [];
    if (!sums.some((known) => known.field === other && known.input === input))
      sums.push({ field: other, input });
    fieldSums.set(field, sums);
  };
  for (const condition of conditionSources(compiled)) {
    // What the records it reads are computed from is read too.
    const viaRecords = recordsRead(condition).flatMap((step) => recorded.get(step) ?? []);
    for (const [, , field] of viaRecords.join('\n').matchAll(HANDOFF_FIELD))
      if (!condition.includes(`.data.${field!}`)) recordedFields.add(field!);
    const source = [condition, ...viaRecords].join('\n');
    const here = [...source.matchAll(MONEY_LITERAL)].map(
      ([, double, single]) => (double ?? single)!,
    );
    for (const literal of here) literals.add(literal);
    for (const [, step, field] of source.matchAll(HANDOFF_FIELD)) {
      const fields = handoffFields.get(step!) ?? [];
      if (!fields.includes(field!)) fields.push(field!);
      handoffFields.set(step!, fields);
      const near = fieldLiterals.get(field!) ?? new Set<string>();
      for (const literal of here) near.add(literal);
      fieldLiterals.set(field!, near);
      const inputs = fieldInputs.get(field!) ?? [];
      for (const [, input] of source.matchAll(INPUT_FIELD))
        if (!inputs.includes(input!)) inputs.push(input!);
      if (inputs.length > 0) fieldInputs.set(field!, inputs);
      const shares = fieldShares.get(field!) ?? [];
      for (const [, input, factor, factorFirst, inputLast] of condition.matchAll(INPUT_SHARE)) {
        const share = { input: (input ?? inputLast)!, factor: (factor ?? factorFirst)! };
        if (!shares.some((known) => known.input === share.input && known.factor === share.factor))
          shares.push(share);
      }
      if (shares.length > 0) fieldShares.set(field!, shares);
    }
    for (const [, left, right, input, inputFirst, leftLast, rightLast] of condition.matchAll(
      FIELD_SUM,
    )) {
      const [a, b, x] =
        left === undefined ? [leftLast!, rightLast!, inputFirst!] : [left, right!, input!];
      sum(a, b, x);
      sum(b, a, x);
    }
    for (const [, field, literal, literalFirst, fieldLast] of source.matchAll(INPUT_COMPARED))
      compared((field ?? fieldLast)!, (literal ?? literalFirst)!);
    for (const [, field, list] of source.matchAll(INPUT_IN_LIST))
      for (const [, literal] of list!.matchAll(STRING_LITERAL)) compared(field!, literal!);
  }
  return {
    handoffFields,
    moneyLiterals: [...literals].sort(compareDecimals),
    inputLiterals,
    fieldLiterals: new Map(
      [...fieldLiterals]
        .filter(([, near]) => near.size > 0)
        .map(([field, near]) => [field, [...near].sort(compareDecimals)]),
    ),
    fieldInputs,
    recordedFields: [...recordedFields],
    fieldShares,
    fieldSums,
  };
}
