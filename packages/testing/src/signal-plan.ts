import fc from 'fast-check';

/**
 * One abstract action of a trace, interpreted against whatever the run waits for when
 * it is applied: decide the pending approval, answer the pending handoff, let time pass,
 * move to the next timer (a partner's answer or a deadline), let the pending deadline
 * expire, cancel, repeat the last signal, or signal a wrong step.
 */
export type PlanAction =
  | { readonly kind: 'decide'; readonly decision: 'approve' | 'reject'; readonly approver: number }
  | { readonly kind: 'answer'; readonly outcome: 'confirmed' | 'rejected' | 'failed' }
  | { readonly kind: 'advance'; readonly seconds: number }
  | { readonly kind: 'next' }
  | { readonly kind: 'expire' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'stray'; readonly step: number };

/** A whole trace plan: whether simulated partners answer on their own, the actions, and how it ends. */
export interface SignalPlan {
  readonly partnersAnswer: boolean;
  readonly actions: readonly PlanAction[];
  /**
   * After the actions: `expire` lets every deadline lapse (every wait must have one, so
   * the run must end); `happy` approves and lets partners answer until it ends.
   */
  readonly drain?: 'expire' | 'happy';
}

/**
 * Random signal plans: approvals and rejections by a small pool of approvers, partner
 * confirmations, rejections and failures, clock moves, expiries, cancels, duplicates
 * and stray signals for steps the run is not waiting on.
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(signalPlanArbitrary(), async (plan) => { … }));
 * ```
 */
export function signalPlanArbitrary(
  options: { maxActions?: number } = {},
): fc.Arbitrary<SignalPlan> {
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
    // explicit confirmed answer carries no data, like a partner that omits fields.
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('answer' as const),
        outcome: fc.constantFrom('confirmed' as const, 'rejected' as const, 'failed' as const),
      }),
    },
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
  );
  return fc.record({
    partnersAnswer: fc.oneof(
      { weight: 4, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    actions: fc.array(action, { maxLength: options.maxActions ?? 30 }),
    drain: fc.constantFrom('expire' as const, 'happy' as const),
  });
}
