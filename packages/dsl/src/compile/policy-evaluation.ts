import type { PolicyRule } from '../schema/scenario-schema.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import type { CheckOutcome, RuleOutcome, RunContext } from './run-context.js';

/**
 * Evaluates policy rules; the decision is `deny` when a deny rule fails (or errors),
 * else `review` when a review rule fails, else `allow`.
 */
export function evaluateRules(
  rules: readonly PolicyRule[],
  evaluator: ExpressionEvaluator,
  context: RunContext,
): CheckOutcome {
  const outcomes: RuleOutcome[] = rules.map((rule) => {
    const result = evaluator.condition(rule.when, context);
    const outcome = result.error !== null ? 'error' : result.value ? 'pass' : 'fail';
    return {
      id: rule.id,
      outcome,
      effect: rule.otherwise,
      message: result.error ?? (outcome === 'fail' ? rule.description : null),
    };
  });
  const failing = outcomes.filter((rule) => rule.outcome !== 'pass');
  const decision = failing.some((rule) => rule.effect === 'deny' || rule.outcome === 'error')
    ? 'deny'
    : failing.length > 0
      ? 'review'
      : 'allow';
  return { decision, rules: outcomes, review: null };
}
