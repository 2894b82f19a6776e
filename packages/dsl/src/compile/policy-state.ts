import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import { evaluateRules } from './policy-evaluation.js';
import type { RuleOutcome, RunContext } from './run-context.js';

/** A policy rule as the run record shows it. */
export interface PolicyRuleState {
  readonly id: string;
  readonly description: string;
  readonly effect: 'deny' | 'review';
  /** `pending` while the rule reads data of steps that have not run yet. */
  readonly outcome: 'pass' | 'fail' | 'error' | 'pending';
  /** Set when reviewers decided this rule's failure (a `review` rule that failed) at a check step. */
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

/** Steps whose output a rule reads: `records.x…`, `handoffs.x…` and `routes.x`. */
export function ruleDependencies(expression: string): {
  records: string[];
  handoffs: string[];
  routes: string[];
} {
  const found = {
    records: new Set<string>(),
    handoffs: new Set<string>(),
    routes: new Set<string>(),
  };
  for (const match of expression.matchAll(/\b(records|handoffs|routes)\.([a-z][a-z0-9_]*)/g)) {
    found[match[1] as keyof typeof found].add(match[2]!);
  }
  return { records: [...found.records], handoffs: [...found.handoffs], routes: [...found.routes] };
}

/**
 * A function computing the run's policy state: every rule evaluated against the current
 * context, except rules that read a record or partner answer that does not exist yet,
 * which are `pending` without evaluating; controls read from their step's progress. A
 * failed review rule counts as cleared once reviewers approved it at a check step.
 */
export function createPolicyStateEvaluator(
  definition: ScenarioDefinition,
  evaluator: ExpressionEvaluator,
): (context: RunContext) => PolicyState {
  const dependencies = definition.policy.map((rule) => ruleDependencies(rule.when));
  const readsRoutes = definition.policy.map((rule) => /\broutes\b/.test(rule.when));
  // Outcomes per run (keyed by its inputs object), reused while everything a rule reads is
  // the same object as last time; stores that rebuild objects simply miss.
  const memo = new WeakMap<object, Map<number, { keys: unknown[]; outcome: RuleOutcome }>>();
  const keysOf = (index: number, context: RunContext): unknown[] => [
    context.environment,
    readsRoutes[index] ? context.routes : null,
    ...dependencies[index]!.records.map((step) => context.records[step]),
    ...dependencies[index]!.handoffs.map((step) => context.handoffs[step]),
  ];
  const outcomeOf = (index: number, context: RunContext): RuleOutcome => {
    let runMemo = memo.get(context.inputs);
    if (!runMemo) {
      runMemo = new Map();
      memo.set(context.inputs, runMemo);
    }
    const keys = keysOf(index, context);
    const previous = runMemo.get(index);
    if (previous && previous.keys.every((key, position) => key === keys[position]))
      return previous.outcome;
    const outcome = evaluateRules([definition.policy[index]!], evaluator, context).rules[0]!;
    runMemo.set(index, { keys, outcome });
    return outcome;
  };
  const reviewedAt = new Map<string, string[]>();
  for (const stage of definition.stages) {
    for (const step of stage.steps) {
      if (step.kind !== 'check') continue;
      for (const rule of step.rules)
        reviewedAt.set(rule, [...(reviewedAt.get(rule) ?? []), step.id]);
    }
  }
  return (context) => {
    const rules: PolicyRuleState[] = definition.policy.map((rule, index) => {
      const needs = dependencies[index]!;
      const review =
        (reviewedAt.get(rule.id) ?? [])
          .map((step) => context.checks[step]?.review)
          .find((value) => value) ?? null;
      const waiting =
        needs.records.some((step) => context.records[step] === undefined) ||
        needs.handoffs.some((step) => context.handoffs[step] === undefined) ||
        needs.routes.some((step) => context.routes[step] === undefined);
      if (waiting) {
        return {
          id: rule.id,
          description: rule.description,
          effect: rule.otherwise,
          outcome: 'pending',
          review: null,
          message: null,
        };
      }
      const evaluated = outcomeOf(index, context);
      return {
        id: rule.id,
        description: rule.description,
        effect: rule.otherwise,
        outcome: evaluated.outcome,
        // A check's review decides the review rules that failed there, not the others it lists.
        review: rule.otherwise === 'review' && evaluated.outcome === 'fail' ? review : null,
        message: evaluated.message,
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
  };
}
