import type { Environment } from '@marcbachmann/cel-js';
import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { ExpressionSite } from '../expressions/expression-sites.js';
import { parseExpression } from '../expressions/cel-ast.js';
import { EXPRESSION_BUDGET } from '../expressions/evaluation-budget.js';
import { expressionCost, type IterationRange } from '../expressions/expression-cost.js';

const count = (value: number): string => value.toLocaleString('en-US');

const describeRange = (range: IterationRange): string =>
  `${range.text} (${typeof range.bound === 'number' ? count(range.bound) : range.bound})`;

/**
 * What can be known before a run about the cost of each expression: nested
 * comprehensions must not multiply an input list or map whose size the schema leaves
 * open by another range of open size (`unbounded_expression`), and the worst case the
 * declared sizes allow must fit {@link EXPRESSION_BUDGET} (`expression_budget_exceeded`).
 * Sizes the schema cannot tell (records, partner answers, `dyn`) are enforced when
 * evaluated.
 */
export function checkExpressionCost(
  sites: readonly ExpressionSite[],
  environment: Environment,
  inputs: Readonly<Record<string, unknown>>,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  for (const site of sites) {
    const root = parseExpression(environment, site.source);
    if (!root) continue; // a syntax error is already an invalid_expression problem
    const problemAt = (code: Problem['code'], message: string, offset: number) =>
      source.problemAt(code, message, site.path, source.locateInScalar(site.path, offset));
    const cost = expressionCost(root, inputs);
    for (const { range, nestedWith } of cost.unbounded) {
      problems.push(
        problemAt(
          'unbounded_expression',
          `${range.text} has no maxItems (or maxProperties) in the input schema and is iterated in nested comprehensions with ${nestedWith.map((other) => other.text).join(', ')}, whose size is open too: the cost grows with the square of the inputs or faster; declare maxItems so it can be checked against the budget of ${count(EXPRESSION_BUDGET)} steps`,
          range.start,
        ),
      );
    }
    if (cost.steps > EXPRESSION_BUDGET) {
      problems.push(
        problemAt(
          'expression_budget_exceeded',
          `this expression may take ${count(cost.steps)} evaluation steps, more than the budget of ${count(EXPRESSION_BUDGET)}: ${cost.costliest.map(describeRange).join(' × ')}; declare smaller maxItems or avoid nesting comprehensions`,
          cost.costliest[0]?.start ?? 0,
        ),
      );
    }
  }
  return problems;
}
