import fc from 'fast-check';
import type { AnswerDataChange } from './answer-data.js';

/** A partner's answer to a handoff. */
export type PartnerOutcome = 'confirmed' | 'rejected' | 'failed';

/**
 * One abstract action of a trace, interpreted against whatever the run waits for when
 * it is applied: decide the pending approval, answer the pending handoff (with no data, or
 * with the data its simulated partner would send), let time pass,
 * move to the next timer (a partner's answer or a deadline), let the pending deadline
 * expire, cancel, repeat the last signal, or signal a wrong step. Two more are partner
 * answers the engine must never apply: `late` answers the most recent handoff the run
 * asked for and no longer waits on (it timed out, or the run moved on), with that
 * attempt's idempotency key; `out_of_order` answers a handoff the run has not asked for
 * yet (`other_step`) or answers the pending handoff with the key of an earlier attempt or
 * another step (`old_attempt`).
 */
export type PlanAction =
  | { readonly kind: 'decide'; readonly decision: 'approve' | 'reject'; readonly approver: number }
  | {
      readonly kind: 'answer';
      readonly outcome: PartnerOutcome;
      /**
       * `simulated`: the data the step's simulated partner would send (its
       * `simulation.data`, evaluated against the run); a change: that data with one field
       * a rule reads moved just under or over; otherwise none.
       */
      readonly data?: 'simulated' | AnswerDataChange;
    }
  | { readonly kind: 'advance'; readonly seconds: number }
  | { readonly kind: 'next' }
  | { readonly kind: 'expire' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'stray'; readonly step: number }
  | { readonly kind: 'late'; readonly outcome: PartnerOutcome }
  | {
      readonly kind: 'out_of_order';
      readonly variant: 'other_step' | 'old_attempt';
      readonly outcome: PartnerOutcome;
    };

/** A whole trace plan: whether simulated partners answer on their own, the actions, and how it ends. */
export interface SignalPlan {
  readonly partnersAnswer: boolean;
  readonly actions: readonly PlanAction[];
  /**
   * After the actions: `expire` lets every deadline lapse (every wait must have one, so
   * the run must end); `happy` approves and lets partners answer until it ends; `answer`
   * approves and answers each handoff with its simulated partner's data at once (even when
   * partners are silent).
   */
  readonly drain?: 'expire' | 'happy' | 'answer';
}

const outcome = fc.constantFrom<PartnerOutcome>('confirmed', 'rejected', 'failed');

/**
 * Random signal plans: approvals and rejections by a small pool of approvers, partner
 * confirmations, rejections and failures, clock moves, expiries, cancels, duplicates,
 * stray signals for steps the run is not waiting on, and late or out-of-order partner
 * answers.
 *
 * @example
 * ```ts
 * await fc.assert(fc.asyncProperty(signalPlanArbitrary(), async (plan) => {
 *   const trace = await runTrace(compiled, compiled.definition.example_inputs, plan, 'property');
 *   return trace.records.length > 0;
 * }));
 * ```
 */
export function signalPlanArbitrary(
  options: {
    maxActions?: number;
    /**
     * Data changes a partner's confirmation may carry (see `answerDataChanges`): when
     * given, a confirmation carries none, the simulated data or one of these, alike.
     */
    dataChanges?: readonly AnswerDataChange[];
  } = {},
): fc.Arbitrary<SignalPlan> {
  const changes = options.dataChanges ?? [];
  const answer: fc.Arbitrary<PlanAction> =
    changes.length === 0
      ? fc.record({ kind: fc.constant('answer' as const), outcome })
      : fc.oneof(
          fc.record({ kind: fc.constant('answer' as const), outcome }),
          fc.record({
            kind: fc.constant('answer' as const),
            outcome: fc.constant('confirmed' as const),
            data: fc.constantFrom<'simulated' | AnswerDataChange>('simulated', ...changes),
          }),
        );
  const action: fc.Arbitrary<PlanAction> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('decide' as const),
        decision: fc.constantFrom(
          'approve' as const,
          'approve' as const,
          'approve' as const,
          'approve' as const,
          'reject' as const,
        ),
        approver: fc.nat({ max: 7 }),
      }),
    },
    // Confirmations mostly come from the simulated partners ('next'), with their data; an
    // explicit answer carries no data (a partner that omits fields) or, where rules read
    // the data, the simulated data or that data moved to the other side of a rule.
    { weight: 3, arbitrary: answer },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('advance' as const),
        seconds: fc.integer({ min: 1, max: 7200 }),
      }),
    },
    { weight: 4, arbitrary: fc.constant({ kind: 'next' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'expire' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'duplicate' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('stray' as const), step: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('late' as const), outcome }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('out_of_order' as const),
        variant: fc.constantFrom('other_step' as const, 'old_attempt' as const),
        outcome,
      }),
    },
  );
  return fc.record({
    // Silent partners (one plan in three) drive timeouts, and the retries, repairs and
    // compensations behind them.
    partnersAnswer: fc.oneof(
      { weight: 2, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    actions: fc.array(action, { maxLength: options.maxActions ?? 30 }),
    drain: fc.constantFrom('expire' as const, 'happy' as const),
  });
}
