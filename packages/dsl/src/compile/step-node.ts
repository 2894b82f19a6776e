import type { CompensationStep, StepDefinition } from '../schema/step-schema.js';
import type { BuildContext, StateNodeConfig } from './build-context.js';
import type { EvaluationFailure } from './expression-evaluator.js';
import { checkNode, recordNode, routeNode } from './instant-step-nodes.js';
import { staticFact, withGuard, type ActionArgs, type TransitionSpec } from './machine-actions.js';
import type { StepExits } from './step-exits.js';
import { approvalNode, handoffNode, waitNode } from './waiting-step-nodes.js';

type AnyStep = StepDefinition | CompensationStep;

/** The first expression error a step would hit on entry, or null. */
function preflightError(
  step: AnyStep,
  build: BuildContext,
  { context }: ActionArgs,
): { readonly message: string; readonly code: EvaluationFailure } | null {
  if (step.kind === 'handoff' && step.request) {
    const result = build.evaluator.fields(step.request, context);
    if (!result.ok) return { message: `request ${result.error}`, code: result.code };
  }
  if (step.kind === 'record') {
    const result = build.evaluator.fields(step.data, context);
    if (!result.ok) return { message: `data ${result.error}`, code: result.code };
  }
  return null;
}

/** Fault reasons of failed evaluations, the budget's first (the guards are tried in order). */
const FAILURES: readonly EvaluationFailure[] = ['expression_budget_exceeded', 'expression_error'];

/**
 * The gate every step passes on entry, after the previous transition's updates: an
 * expression error faults the run (`expression_error`, or `expression_budget_exceeded`
 * when the evaluation ran out of steps), a false `when` skips the step,
 * a step that already ran `max_attempts` times takes `on_exhausted`, otherwise the step
 * becomes `active`.
 */
function gateTransitions(
  step: AnyStep,
  build: BuildContext,
  exits: StepExits,
  stage: string | null,
): TransitionSpec[] {
  const transitions: TransitionSpec[] = [];
  const when = step.when;
  if (when !== undefined) {
    const evaluate = ({ context }: ActionArgs) => build.evaluator.condition(when, context);
    for (const reason of FAILURES) {
      transitions.push(
        ...withGuard(
          exits.fault(
            { step: step.id, reason, message: (args) => `when: ${evaluate(args).error}` },
            [],
          ),
          (args) => evaluate(args).code === reason,
        ),
      );
    }
    transitions.push(
      ...withGuard(
        exits.skip([staticFact('step.skipped', stage, step.id, { when })]),
        (args) => !evaluate(args).value,
      ),
    );
  }
  if ('max_attempts' in step && step.max_attempts !== undefined) {
    const max = step.max_attempts;
    transitions.push(
      ...withGuard(
        exits.failure(step.on_exhausted, { step: step.id, reason: 'attempts_exhausted' }, [
          staticFact('step.exhausted', stage, step.id, { max_attempts: max }),
        ]),
        ({ context }) => (context.attempts[step.id] ?? 0) >= max,
      ),
    );
  }
  const hasPreflight =
    (step.kind === 'handoff' && step.request !== undefined) ||
    (step.kind === 'record' && Object.keys(step.data).length > 0);
  if (hasPreflight) {
    for (const reason of FAILURES) {
      transitions.push(
        ...withGuard(
          exits.fault(
            {
              step: step.id,
              reason,
              message: (args) => preflightError(step, build, args)?.message ?? null,
            },
            [],
          ),
          (args) => preflightError(step, build, args)?.code === reason,
        ),
      );
    }
  }
  transitions.push({ target: 'active', actions: [] });
  return transitions;
}

function activeNode(
  step: AnyStep,
  build: BuildContext,
  exits: StepExits,
  stage: string | null,
): StateNodeConfig {
  switch (step.kind) {
    case 'check':
      return checkNode(step, build, exits, stage);
    case 'approval':
      return approvalNode(step, build, exits, stage);
    case 'handoff':
      return handoffNode(step, build, exits, stage);
    case 'record':
      return recordNode(step, build, exits, stage);
    case 'route':
      return routeNode(step, build, exits, stage);
    case 'wait':
      return waitNode(step, build, exits, stage);
  }
}

/**
 * The state node of one step: `{ id: <step>, initial: 'gate', states: { gate, active } }`.
 * A run at rest is always in some step's `active` state or in a final state.
 */
export function stepNode(
  step: AnyStep,
  build: BuildContext,
  exits: StepExits,
  stage: string | null,
): StateNodeConfig {
  const gate = gateTransitions(step, build, exits, stage);
  const active = activeNode(step, build, exits, stage);
  // A step with nothing to check on entry skips the gate: one microstep fewer.
  if (gate.length === 1) return { id: step.id, initial: 'active', states: { active } };
  return { id: step.id, initial: 'gate', states: { gate: { always: gate }, active } };
}
