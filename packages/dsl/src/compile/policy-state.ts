import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import { evaluateRules } from './policy-evaluation.js';
import type { RunContext } from './run-context.js';

/** A policy rule as the run record shows it. */
export interface PolicyRuleState {
  readonly id: string;
  readonly description: string;
  readonly effect: 'deny' | 'review';
  /** `pending` while the rule reads data of steps that have not run yet. */
  readonly outcome: 'pass' | 'fail' | 'error' | 'pending';
  /** Set when reviewers decided this rule's review at a check step. */
  readonly review: 'approved' | 'rejected' | null;
  readonly message: string | null;
}

/** A control as the run record shows it. */
export interface ControlState {
  readonly id: string;
  readonly title: string;
  readonly category: string;
  readonly step: string;
  readonly status: 'pending' | 'satisfied' | 'failed' | 'not_applicable';
}

/** The run's policy state: decision, each rule's outcome, controls. */
export interface PolicyState {
  readonly decision: 'allow' | 'review' | 'deny';
  readonly rules: readonly PolicyRuleState[];
  readonly controls: readonly ControlState[];
}

const CONTROL_STATUS = {
  completed: 'satisfied',
  failed: 'failed',
  skipped: 'not_applicable',
} as const;

/**
 * Evaluates every policy rule against the run's current context and reads each control
 * from its step's progress. A failed review rule counts as cleared once reviewers
 * approved it at a check step.
 *
 * @example
 * ```ts
 * computePolicyState(definition, evaluator, context).decision; // 'allow'
 * ```
 */
export function computePolicyState(
  definition: ScenarioDefinition,
  evaluator: ExpressionEvaluator,
  context: RunContext,
): PolicyState {
  const reviews = new Map<string, 'approved' | 'rejected'>();
  for (const stage of definition.stages) {
    for (const step of stage.steps) {
      const review = step.kind === 'check' ? context.checks[step.id]?.review : null;
      if (step.kind === 'check' && review) for (const rule of step.rules) reviews.set(rule, review);
    }
  }
  const evaluated = evaluateRules(definition.policy, evaluator, context).rules;
  const rules: PolicyRuleState[] = evaluated.map((rule, index) => {
    const pending = rule.outcome === 'error' && /no such key/i.test(rule.message ?? '');
    return {
      id: rule.id,
      description: definition.policy[index]!.description,
      effect: rule.effect,
      outcome: pending ? 'pending' : rule.outcome,
      review: reviews.get(rule.id) ?? null,
      message: pending ? null : rule.message,
    };
  });
  const blocking = rules.filter((rule) => rule.outcome === 'fail' || rule.outcome === 'error');
  const decision = blocking.some(
    (rule) => rule.effect === 'deny' || rule.outcome === 'error' || rule.review === 'rejected',
  )
    ? 'deny'
    : blocking.some((rule) => rule.review !== 'approved')
      ? 'review'
      : 'allow';
  const controls: ControlState[] = definition.controls.map((control) => {
    const progress = context.progress[control.step];
    return {
      id: control.id,
      title: control.title,
      category: control.category,
      step: control.step,
      status: progress ? CONTROL_STATUS[progress] : 'pending',
    };
  });
  return { decision, rules, controls };
}
