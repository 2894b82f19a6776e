import { z } from 'zod';

/**
 * A scenario identifier (stage, step, party, rule, alternative): snake_case, at most 63
 * characters.
 *
 * @example
 * ```ts
 * identifierField.parse('release_approval');
 * ```
 */
export const identifierField = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/);

/**
 * A fixed-length ISO 8601 duration as the scenario wrote it (`PT15M`, `P1D`).
 *
 * @example
 * ```ts
 * durationField.parse('PT30M');
 * ```
 */
export const durationField = z
  .string()
  .regex(/^P(?!$)(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/)
  .meta({ examples: ['PT30M', 'P1D'] });

/**
 * An RFC 3339 UTC time as the engine writes it (`Date#toISOString()`).
 *
 * @example
 * ```ts
 * instantField.parse('2026-06-01T08:00:00.000Z');
 * ```
 */
export const instantField = z.iso.datetime();

/**
 * The 1-based attempt of a waiting step (re-entered steps count up).
 *
 * @example
 * ```ts
 * attemptField.parse(1);
 * ```
 */
export const attemptField = z
  .int()
  .min(1)
  .meta({ description: 'Which entry of the step this is: 1 the first time, then 2, 3…' });

/**
 * A map whose keys and values the scenario or a partner decides (CEL results, partner
 * data): genuinely open, any JSON per key.
 *
 * @example
 * ```ts
 * openMapField.parse({ risk: 'low' });
 * ```
 */
export const openMapField = z.record(z.string(), z.unknown());

/**
 * Every stable reason code a run can fault, be cancelled or start compensating with.
 * `faulted`, `compensate` and `cancelled` come from a success path that routes straight
 * to `fault`, `compensate` or `cancel`.
 *
 * @example
 * ```ts
 * FAULT_REASONS.includes('handoff_timed_out'); // true
 * ```
 */
export const FAULT_REASONS = [
  'approval_rejected',
  'approval_expired',
  'review_rejected',
  'review_expired',
  'policy_denied',
  'handoff_rejected',
  'handoff_failed',
  'handoff_timed_out',
  'no_route',
  'attempts_exhausted',
  'expression_error',
  'expression_budget_exceeded',
  'compensation_failed',
  'cancel_requested',
  'faulted',
  'compensate',
  'cancelled',
] as const;

/**
 * A reason code of {@link FAULT_REASONS}.
 *
 * @example
 * ```ts
 * faultReasonField.parse('policy_denied');
 * ```
 */
export const faultReasonField = z.enum(FAULT_REASONS);

/**
 * One recorded approval decision (engine `ApprovalDecision`).
 *
 * @example
 * ```ts
 * approvalDecisionField.parse({ approver: 'ops:ana', decision: 'approve', note: null, at: '2026-06-01T08:00:00.000Z' });
 * ```
 */
export const approvalDecisionField = z.strictObject({
  approver: z.string().meta({
    description:
      'Who decided, as authenticated: the actor of the credential (over HTTP never a request field). Quorum and maker-checker count distinct approvers.',
  }),
  decision: z.enum(['approve', 'reject']),
  note: z.string().nullable().meta({ description: "The approver's note, if any." }),
  at: instantField.meta({ description: 'When the decision was recorded (environment clock).' }),
  credential_id: z.string().optional().meta({
    description:
      'The credential the decision came with (an API key id `key_…`, or the host’s own id); absent when the host applied it through the engine without one.',
  }),
  label: z.string().optional().meta({
    description:
      'How the decider named themselves (the request body’s `approver`): shown to people, never counted.',
  }),
});

/**
 * Who sent a signal, as the host authenticated them (`SignalSender`).
 *
 * @example
 * ```ts
 * signalSenderField.parse({ actor: 'partner:payout_bank', credential_id: 'key_123' });
 * ```
 */
export const signalSenderField = z.strictObject({
  actor: z.string().meta({ description: 'The person or system, e.g. `partner:payout_bank`.' }),
  credential_id: z
    .string()
    .meta({ description: 'The credential used: an API key id `key_…` or the host’s own id.' }),
});
