import type { JsonObject } from '@programrun/evidence';
import type { CheckStep, RecordStep, RouteStep } from '../schema/step-schema.js';
import { approvalDecisionTransitions, beginAttempt, isTimerFor } from './approval-handling.js';
import type { ActiveNodeBuilder } from './build-context.js';
import { cancelTransitions } from './cancel-transitions.js';
import {
  fact,
  factIf,
  update,
  withGuard,
  type Guard,
  type MachineAction,
} from './machine-actions.js';
import { evaluateRules } from './policy-evaluation.js';
import { BUDGET_EXCEEDED, isBudgetExceeded } from '../expressions/evaluation-budget.js';
import type {
  CheckOutcome,
  ConsideredAlternative,
  RouteSelection,
  RunContext,
} from './run-context.js';

/**
 * A policy gate: evaluates its rules on entry. `allow` continues, `deny` takes `on_fail`,
 * `review` waits for the reviewers' decision (an approval inside the check). A rule that
 * ran out of evaluation steps faults the run (`expression_budget_exceeded`): a decision
 * that could not be computed is not routed like a denial.
 */
export const checkNode: ActiveNodeBuilder<CheckStep> = (step, build, exits, stage) => {
  const rules = step.rules.flatMap((id) => {
    const rule = build.rules.get(id);
    return rule ? [rule] : [];
  });
  const outcome = (context: RunContext): CheckOutcome | undefined => context.checks[step.id];
  const decisionIs =
    (decision: CheckOutcome['decision']): Guard =>
    ({ context }) =>
      outcome(context)?.decision === decision && outcome(context)?.review === null;
  const setReview = (review: 'approved' | 'rejected'): MachineAction =>
    update(({ context }) => ({
      checks: { ...context.checks, [step.id]: { ...outcome(context)!, review } },
    }));
  const review = step.review;
  const entry: MachineAction[] = [
    update(({ context }) => ({
      checks: { ...context.checks, [step.id]: evaluateRules(rules, build.evaluator, context) },
    })),
    fact(({ context }) => ({
      type: 'policy.evaluated',
      stage,
      step: step.id,
      data: {
        decision: outcome(context)!.decision,
        rules: outcome(context)!.rules as unknown as JsonObject[],
      },
    })),
  ];
  if (review) {
    entry.push(
      factIf(({ context }) => {
        if (outcome(context)?.decision !== 'review') return undefined;
        return {
          type: 'approval.requested',
          stage,
          step: step.id,
          data: {
            approvers: review.approvers,
            quorum: review.quorum,
            maker_checker: false,
            expires: review.expires,
            review: true,
            attempt: (context.attempts[step.id] ?? 0) + 1,
          },
        };
      }),
      // Counted only for a review so the timer's attempt matches; harmless otherwise.
      beginAttempt(step.id),
    );
  }
  const awaitingReview = decisionIs('review');
  const overBudget = (context: RunContext) =>
    outcome(context)?.rules.find((rule) => isBudgetExceeded(rule.message));
  return {
    entry,
    always: [
      ...withGuard(
        exits.fault(
          {
            step: step.id,
            reason: BUDGET_EXCEEDED,
            message: ({ context }) => {
              const rule = overBudget(context);
              return rule ? `${rule.id}: ${rule.message}` : null;
            },
          },
          [],
        ),
        ({ context }) => overBudget(context) !== undefined,
      ),
      ...withGuard(exits.success([]), decisionIs('allow')),
      ...withGuard(
        exits.failure(
          step.on_fail,
          {
            step: step.id,
            reason: 'policy_denied',
            message: ({ context }) => failingRules(outcome(context)),
          },
          [],
        ),
        decisionIs('deny'),
      ),
    ],
    on: review
      ? {
          'approval.decision': approvalDecisionTransitions(
            {
              step: step.id,
              stage,
              quorum: review.quorum,
              makerChecker: false,
              onReject: step.on_fail,
              rejectCause: { step: step.id, reason: 'review_rejected' },
            },
            exits,
            {
              guard: awaitingReview,
              onApproved: setReview('approved'),
              onRejected: setReview('rejected'),
            },
          ),
          'timer.fired': withGuard(
            exits.failure(review.on_timeout, { step: step.id, reason: 'review_expired' }, [
              fact(() => ({
                type: 'approval.expired',
                stage,
                step: step.id,
                data: { expires: review.expires, review: true },
              })),
            ]),
            (args) => awaitingReview(args) && isTimerFor(step.id)(args),
          ),
          'run.cancel': withGuard(cancelTransitions(stage, step.id), awaitingReview),
        }
      : {},
  };
};

function failingRules(outcome: CheckOutcome | undefined): string {
  const failing = outcome?.rules.filter((rule) => rule.outcome !== 'pass') ?? [];
  return failing.map((rule) => `${rule.id}: ${rule.message ?? rule.outcome}`).join('; ');
}

/** Records a fact for evidence; `delivery_object` records emit `delivery.recorded`. */
export const recordNode: ActiveNodeBuilder<RecordStep> = (step, build, exits, stage) => ({
  entry: [
    update(({ context }) => {
      const result = build.evaluator.fields(step.data, context);
      return {
        records: { ...context.records, [step.id]: (result.ok ? result.value : {}) as JsonObject },
      };
    }),
    fact(({ context }) => ({
      type: step.record === 'delivery_object' ? 'delivery.recorded' : 'record.created',
      stage,
      step: step.id,
      data: {
        record: step.record,
        party: step.party ?? null,
        data: context.records[step.id] ?? {},
      },
    })),
  ],
  always: exits.success([]),
});

/**
 * Chooses the first eligible alternative, keeping every alternative considered and why.
 * An alternative whose `when` ran out of evaluation steps faults the run
 * (`expression_budget_exceeded`) rather than counting as not eligible.
 */
export const routeNode: ActiveNodeBuilder<RouteStep> = (step, build, exits, stage) => {
  const select = (context: RunContext): RouteSelection => {
    const alternatives: ConsideredAlternative[] = step.alternatives.map((alternative) => {
      const result = build.evaluator.condition(alternative.when, context);
      return {
        id: alternative.id,
        eligible: result.value,
        reason: alternative.reason,
        error: result.error,
      };
    });
    const chosen = alternatives.find((alternative) => alternative.eligible);
    return { selected: chosen?.id ?? null, reason: chosen?.reason ?? null, alternatives };
  };
  const chose =
    (id: string | null): Guard =>
    ({ context }) =>
      (context.route_selections[step.id]?.selected ?? null) === id;
  const overBudget = (context: RunContext) =>
    context.route_selections[step.id]?.alternatives.find((alternative) =>
      isBudgetExceeded(alternative.error),
    );
  return {
    entry: [
      update(({ context }) => {
        const selection = select(context);
        return {
          route_selections: { ...context.route_selections, [step.id]: selection },
          routes:
            selection.selected === null
              ? context.routes
              : { ...context.routes, [step.id]: selection.selected },
        };
      }),
      fact(({ context }) => ({
        type: 'route.selected',
        stage,
        step: step.id,
        data: context.route_selections[step.id] as unknown as JsonObject,
      })),
    ],
    always: [
      ...withGuard(
        exits.fault(
          {
            step: step.id,
            reason: BUDGET_EXCEEDED,
            message: ({ context }) => {
              const alternative = overBudget(context);
              return alternative ? `${alternative.id}: ${alternative.error}` : null;
            },
          },
          [],
        ),
        ({ context }) => overBudget(context) !== undefined,
      ),
      ...step.alternatives.flatMap((alternative) =>
        withGuard(exits.success([], alternative.next), chose(alternative.id)),
      ),
      ...withGuard(
        exits.failure(step.on_no_route, { step: step.id, reason: 'no_route' }, []),
        chose(null),
      ),
    ],
  };
};
