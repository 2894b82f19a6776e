import { childNodes, comprehensionOf, type CelNode, type ComprehensionArgs } from './cel-ast.js';

/** What a comprehension iterates over, as far as the input schema tells. */
export interface IterationRange {
  /** The iterated expression as written, e.g. `inputs.items`. */
  readonly text: string;
  /** Offset of that expression in the source. */
  readonly start: number;
  /**
   * Most elements it can have: a number (a literal's length, a declared `maxItems` or
   * `maxProperties`); `unbounded` for an input list or map declared without one;
   * `unknown` for data the schema does not describe (records, partner answers, `dyn`).
   */
  readonly bound: number | 'unbounded' | 'unknown';
}

/** An input range of open size and the other open ranges it is nested with. */
export interface UnboundedRange {
  readonly range: IterationRange;
  readonly nestedWith: readonly IterationRange[];
}

/** The static cost of one expression. */
export interface ExpressionCost {
  /**
   * Worst-case evaluation steps, counting what is known (an unknown size counts as one):
   * a lower bound of the worst case, so more than the budget is certainly too much.
   */
  readonly steps: number;
  /** The nesting of comprehensions that costs the most, outermost first. */
  readonly costliest: readonly IterationRange[];
  /**
   * Input lists or maps without a declared size, iterated in a nesting with another range
   * of data-dependent size (unbounded or unknown): a cost that grows with the square of
   * the inputs or faster. One nested with ranges of known size grows linearly, like a
   * single comprehension, and is left to the run-time budget.
   */
  readonly unbounded: readonly UnboundedRange[];
}

type Schema = Readonly<Record<string, unknown>>;
type Scope = ReadonlyMap<string, Schema | undefined>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const hasType = (schema: Schema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** The JSON Schema describing a node's value, when it is a path into the inputs. */
function schemaOf(node: CelNode, scope: Scope, inputs: Schema): Schema | undefined {
  if (node.op === 'id') {
    const name = node.args as string;
    return scope.has(name) ? scope.get(name) : name === 'inputs' ? inputs : undefined;
  }
  if (node.op === '.' || node.op === '[]') {
    const [object, key] = node.args as [CelNode, unknown];
    const schema = schemaOf(object, scope, inputs);
    if (!schema) return undefined;
    if (node.op === '[]' && hasType(schema, 'array'))
      return isSchema(schema.items) ? schema.items : undefined;
    const name =
      node.op === '.' ? key : (key as CelNode).op === 'value' ? (key as CelNode).args : undefined;
    const properties = schema.properties;
    if (typeof name !== 'string' || !isSchema(properties)) return undefined;
    const property = properties[name];
    return isSchema(property) ? property : undefined;
  }
  return undefined;
}

/** The range of a comprehension and the schema of its elements. */
function rangeOf(
  iterable: CelNode,
  scope: Scope,
  inputs: Schema,
): { range: IterationRange; element: Schema | undefined } {
  const text = iterable.input.slice(iterable.start, iterable.end);
  const at = (bound: IterationRange['bound'], element?: Schema) => ({
    range: { text, start: iterable.start, bound },
    element,
  });
  if (iterable.op === 'list' || iterable.op === 'map')
    return at((iterable.args as unknown[]).length);
  const source = comprehensionOf(iterable);
  // `map` and `filter` give at most as many elements as they read.
  if (source) return at(rangeOf(source.iterable, scope, inputs).range.bound);
  const schema = schemaOf(iterable, scope, inputs);
  if (!schema) return at('unknown');
  if (hasType(schema, 'array')) {
    const element = isSchema(schema.items) ? schema.items : undefined;
    return at(typeof schema.maxItems === 'number' ? schema.maxItems : 'unbounded', element);
  }
  if (hasType(schema, 'object')) {
    if (typeof schema.maxProperties === 'number') return at(schema.maxProperties);
    const closed = schema.additionalProperties === false && schema.patternProperties === undefined;
    const declared = isSchema(schema.properties) ? Object.keys(schema.properties).length : 0;
    return at(closed ? declared : 'unbounded');
  }
  return at('unknown');
}

/**
 * The static cost of an expression in evaluation steps (see `EXPRESSION_BUDGET`): each
 * node counts once per iteration of the comprehensions around it, each comprehension
 * iterating as many times as its range's bound. Ranges come from list literals and from
 * the input schema (`maxItems`, `maxProperties`), following iteration variables
 * (`inputs.orders.all(o, o.lines.all(…))` reads `orders.items.properties.lines`).
 */
export function expressionCost(root: CelNode, inputs: Schema): ExpressionCost {
  let steps = 0;
  let costliest: { multiplier: number; chain: readonly IterationRange[] } = {
    multiplier: 0,
    chain: [],
  };
  const unbounded = new Map<number, UnboundedRange>();

  const visit = (
    node: CelNode,
    scope: Scope,
    multiplier: number,
    chain: readonly IterationRange[],
  ): void => {
    steps += multiplier;
    if (node.op !== 'comprehension') {
      for (const child of childNodes(node)) visit(child, scope, multiplier, chain);
      return;
    }
    const { iterable, iterVarName, init, step } = node.args as ComprehensionArgs;
    visit(iterable, scope, multiplier, chain);
    visit(init, scope, multiplier, chain);
    const { range, element } = rangeOf(iterable, scope, inputs);
    const nested = [...chain, range];
    const open = nested.filter((candidate) => typeof candidate.bound !== 'number');
    if (open.length > 1) {
      for (const candidate of open) {
        if (candidate.bound !== 'unbounded' || unbounded.has(candidate.start)) continue;
        const nestedWith = open.filter((other) => other !== candidate);
        unbounded.set(candidate.start, { range: candidate, nestedWith });
      }
    }
    const inner = multiplier * (typeof range.bound === 'number' ? range.bound : 1);
    if (inner >= costliest.multiplier) costliest = { multiplier: inner, chain: nested };
    visit(step, new Map(scope).set(iterVarName, element), inner, nested);
  };

  visit(root, new Map(), 1, []);
  return { steps, costliest: costliest.chain, unbounded: [...unbounded.values()] };
}
