import type { RE2JS } from 're2js';
import { compileRegex, RegexSyntaxError } from '../regex/re2.js';
import {
  allNodes,
  functionCall,
  methodCall,
  type CelEvaluator,
  type CelNode,
  type EvaluateNode,
} from './cel-ast.js';
import type { EvaluationMeter } from './evaluation-budget.js';
import { deepSize, membershipSize, shallowSize, stringSize } from './value-size.js';

type Sizer = (value: unknown) => number;

/** How operands are charged, by operator: what an operation reads of each. */
const OPERAND_SIZERS: Readonly<Record<string, readonly [Sizer | null, Sizer | null]>> = {
  '==': [deepSize, deepSize],
  '!=': [deepSize, deepSize],
  in: [null, membershipSize],
  '+': [shallowSize, shallowSize],
  '<': [shallowSize, shallowSize],
  '<=': [shallowSize, shallowSize],
  '>': [shallowSize, shallowSize],
  '>=': [shallowSize, shallowSize],
};

/** The sizer of each node whose value an operation reads in full. */
function operandSizers(nodes: readonly CelNode[]): Map<CelNode, Sizer> {
  const sizers = new Map<CelNode, Sizer>();
  for (const node of nodes) {
    const byOperator = OPERAND_SIZERS[node.op];
    if (byOperator && Array.isArray(node.args)) {
      const operands = node.args as readonly CelNode[];
      byOperator.forEach((sizer, index) => {
        if (sizer) sizers.set(operands[index]!, sizer);
      });
      continue;
    }
    const method = methodCall(node);
    const call = functionCall(node);
    const operands = method ? [method.receiver, ...method.args] : (call?.args ?? []);
    const name = method?.name ?? call?.name;
    for (const operand of operands) sizers.set(operand, name === 'size' ? stringSize : shallowSize);
  }
  return sizers;
}

const programSizes = new WeakMap<RE2JS, number>();

/**
 * `string.matches(pattern)` on RE2 (CEL's own dialect): linear time, charged the text's
 * length times the size of the compiled pattern (what the automaton may visit).
 */
function matchesOnRe2(node: CelNode, meter: EvaluationMeter): EvaluateNode {
  const { receiver, args } = methodCall(node)!;
  const patternNode = args[0]!;
  return (evaluator: CelEvaluator, _node: CelNode, context: unknown) => {
    const text = evaluator.run(receiver, context);
    const pattern = evaluator.run(patternNode, context);
    if (typeof text !== 'string' || typeof pattern !== 'string')
      throw new Error(`found no matching overload for 'matches' on ${typeof text}`);
    let regex: RE2JS;
    try {
      regex = compileRegex(pattern);
    } catch (error) {
      if (error instanceof RegexSyntaxError)
        throw new Error(`matches: pattern ${JSON.stringify(pattern)} ${error.message}`, {
          cause: error,
        });
      throw error;
    }
    let program = programSizes.get(regex);
    if (program === undefined) {
      program = regex.programSize();
      programSizes.set(regex, program);
    }
    meter.charge(text.length * Math.ceil(program / 16));
    return regex.test(text);
  };
}

const TIMESTAMP_DATE = /^(\d{4})-(\d{2})-(\d{2})T/;

/** Whether an ISO 8601 timestamp's date part is a day of the calendar (no 30 February). */
function isCalendarDate(text: string): boolean {
  const match = TIMESTAMP_DATE.exec(text);
  if (!match) return true; // cel-js refuses what is not ISO 8601 itself
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/**
 * `timestamp(string)` refusing dates the calendar lacks, which cel-js (through `new Date`)
 * would roll over: `timestamp('2026-02-30T00:00:00Z')` is an error, not 2 March.
 */
function strictTimestamp(node: CelNode): EvaluateNode {
  const argument = functionCall(node)!.args[0]!;
  const evaluate = node.meta.evaluate;
  return (evaluator, _node, context) => {
    const text = evaluator.run(argument, context);
    if (typeof text === 'string' && !isCalendarDate(text))
      throw new Error(`timestamp: ${JSON.stringify(text)} is not a calendar date`);
    return evaluate.call(node, evaluator, node, context);
  };
}

/** What a node does when evaluated, before metering: cel-js's own evaluation, resolved. */
function evaluationOf(node: CelNode, meter: EvaluationMeter): EvaluateNode {
  const { alternate, macro } = node.meta;
  if (alternate)
    return (evaluator, _node, context) => alternate.evaluate(evaluator, alternate, context);
  if (macro) return (evaluator, _node, context) => macro.evaluate(evaluator, macro, context);
  const method = methodCall(node);
  if (method?.name === 'matches' && method.args.length === 1) return matchesOnRe2(node, meter);
  const call = functionCall(node);
  if (call?.name === 'timestamp' && call.args.length === 1) return strictTimestamp(node);
  const evaluate = node.meta.evaluate;
  return (evaluator, _node, context) => evaluate.call(node, evaluator, node, context);
}

/**
 * Meters a type-checked expression: every node evaluated charges `meter` one step, and a
 * value an operation reads in full charges its size; `matches()` runs on RE2. Installed
 * once per parsed expression, after type-checking (which settles how nodes evaluate);
 * the meter is reset before each evaluation and throws once the budget is spent.
 */
export function meterExpression(root: CelNode, meter: EvaluationMeter): void {
  const nodes = allNodes(root);
  const sizers = operandSizers(nodes);
  for (const node of nodes) {
    const evaluate = evaluationOf(node, meter);
    const sizer = sizers.get(node);
    node.evaluate = sizer
      ? (evaluator, _node, context) => {
          meter.charge(1);
          const value = evaluate(evaluator, node, context);
          meter.charge(sizer(value));
          return value;
        }
      : (evaluator, _node, context) => {
          meter.charge(1);
          return evaluate(evaluator, node, context);
        };
  }
}
