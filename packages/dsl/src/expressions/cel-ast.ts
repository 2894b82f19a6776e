// The parts of @marcbachmann/cel-js's parsed AST that bounded evaluation reads: its
// nodes are not a public type of the library, so this file is the one place that knows
// their shape (the version is pinned; the tests of metering and cost analysis fail if
// it changes).

/** The parsed AST of `source` in `environment`, or undefined for a syntax error. */
export function parseExpression(
  environment: { parse(source: string): unknown },
  source: string,
): CelNode | undefined {
  try {
    return (environment.parse(source) as { ast: CelNode }).ast;
  } catch {
    return undefined;
  }
}

/** How cel-js evaluates a node: `run` evaluates a child. */
export interface CelEvaluator {
  run(node: CelNode, context: unknown): unknown;
}

/** A node's evaluation function. */
export type EvaluateNode = (evaluator: CelEvaluator, node: CelNode, context: unknown) => unknown;

/** A macro that evaluates itself (`has()`, `cel.bind()`). */
export interface CelMacro {
  readonly evaluate: (evaluator: CelEvaluator, macro: CelMacro, context: unknown) => unknown;
  readonly args?: readonly CelNode[];
  readonly val?: CelNode;
  readonly exp?: CelNode;
}

/** The arguments of a comprehension (`all`, `exists`, `exists_one`, `map`, `filter`). */
export interface ComprehensionArgs {
  readonly iterable: CelNode;
  readonly iterVarName: string;
  readonly init: CelNode;
  readonly step: CelNode;
}

/** One node of a parsed expression; `start`/`end` are offsets into the source. */
export interface CelNode {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
  readonly input: string;
  readonly meta: {
    readonly evaluate: EvaluateNode;
    readonly alternate?: CelNode;
    readonly macro?: CelMacro;
  };
  evaluate: EvaluateNode;
}

const isNode = (value: unknown): value is CelNode =>
  typeof value === 'object' &&
  value !== null &&
  'op' in value &&
  'meta' in value &&
  typeof (value as { evaluate?: unknown }).evaluate === 'function';

/** The comprehension a node stands for (a macro call expands to one), or undefined. */
export function comprehensionOf(node: CelNode): ComprehensionArgs | undefined {
  const target = node.meta.alternate ?? node;
  return target.op === 'comprehension' ? (target.args as ComprehensionArgs) : undefined;
}

/** The method name, receiver and arguments of a method call node (`x.f(a)`). */
export function methodCall(
  node: CelNode,
): { name: string; receiver: CelNode; args: readonly CelNode[] } | undefined {
  if (node.op !== 'rcall' || node.meta.alternate || node.meta.macro) return undefined;
  const [name, receiver, args] = node.args as [string, CelNode, CelNode[]];
  return { name, receiver, args };
}

/** The name and arguments of a global function call node (`f(a)`). */
export function functionCall(
  node: CelNode,
): { name: string; args: readonly CelNode[] } | undefined {
  if (node.op !== 'call' || node.meta.alternate || node.meta.macro) return undefined;
  const [name, args] = node.args as [string, CelNode[]];
  return { name, args };
}

/**
 * The nodes a node evaluates directly, in source order: its operands, or for a macro call
 * the comprehension (or macro parts) it expands to.
 */
export function childNodes(node: CelNode): CelNode[] {
  const { alternate, macro } = node.meta;
  if (alternate) return [alternate];
  if (macro) {
    const parts: unknown[] = [...(macro.args ?? []), macro.val, macro.exp];
    return parts.filter(isNode);
  }
  const args = node.args;
  if (node.op === 'comprehension') {
    const { iterable, init, step } = args as ComprehensionArgs;
    return [iterable, init, step];
  }
  if (isNode(args)) return [args];
  if (!Array.isArray(args)) return [];
  return args.flatMap((arg: unknown) => {
    if (isNode(arg)) return [arg];
    if (Array.isArray(arg)) return arg.filter(isNode);
    return [];
  });
}

/** Every node of an expression, each once, parents before children. */
export function allNodes(root: CelNode): CelNode[] {
  const seen = new Set<CelNode>();
  const order: CelNode[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    order.push(node);
    pending.push(...childNodes(node).reverse());
  }
  return order;
}
