import type { JsonObject } from '@programrun/evidence';
import type { RunEvent, SignalSender } from '@programrun/dsl';

/** An approver's decision on an approval step (or a policy review at a check step). */
export interface ApprovalSignal {
  readonly kind: 'approval';
  readonly step: string;
  readonly decision: 'approve' | 'reject';
  /**
   * Who decided, as the host authenticated them (e.g. `ops:alice`): quorum and
   * maker-checker count distinct approvers. The HTTP layer passes the caller's actor,
   * never a request field.
   */
  readonly approver: string;
  readonly note?: string | undefined;
  /** The credential the decision came with (`key_…`); the evidence names it. */
  readonly credential_id?: string | undefined;
  /**
   * How the decider named themselves (the HTTP body's `approver`): recorded for people to
   * read, never counted.
   */
  readonly label?: string | undefined;
}

/** A partner's answer to a handoff (the partner callback). */
export interface HandoffSignal {
  readonly kind: 'handoff';
  readonly step: string;
  readonly outcome: 'confirmed' | 'rejected' | 'failed';
  /** The partner's own reference for the execution. */
  readonly reference: string;
  readonly data?: JsonObject | undefined;
  /**
   * The `pik_…` idempotency key the partner was given: it names the attempt answered, so
   * a late answer to an earlier attempt of a retried step is refused. Recommended.
   */
  readonly idempotency_key?: string | undefined;
  /** Who answered, as the host authenticated them; the evidence names them. */
  readonly answered_by?: SignalSender | undefined;
}

/** A request to cancel the run. */
export interface CancelSignal {
  readonly kind: 'cancel';
  readonly reason?: string | undefined;
}

/** Anything a client or partner can tell a run. */
export type Signal = ApprovalSignal | HandoffSignal | CancelSignal;

/**
 * The machine event of a signal, stamped with the environment clock's time.
 */
export function toRunEvent(signal: Signal, at: string, attempt?: number): RunEvent {
  switch (signal.kind) {
    case 'approval':
      return {
        type: 'approval.decision',
        step: signal.step,
        decision: signal.decision,
        approver: signal.approver,
        note: signal.note,
        credential_id: signal.credential_id,
        label: signal.label,
        at,
      };
    case 'handoff':
      return {
        type: 'handoff.outcome',
        step: signal.step,
        outcome: signal.outcome,
        reference: signal.reference,
        data: signal.data ?? {},
        ...(attempt === undefined ? {} : { attempt }),
        answered_by: signal.answered_by,
        at,
      };
    case 'cancel':
      return { type: 'run.cancel', reason: signal.reason ?? 'requested', at };
  }
}
