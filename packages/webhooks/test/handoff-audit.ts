// Checks a run's history against what a partner stub saw: every handoff applied exactly
// once, every call of a handoff with the handoff's own pik_ key (header, webhook-id and
// body) and a verified signature, and every attempt record naming a call the partner got.
import type { LifecycleRecord } from '@programrun/engine';
import type { PartnerCall } from './partner-stub.js';

const ANSWER_TYPES = new Set([
  'program_run.handoff.confirmed',
  'program_run.handoff.rejected',
  'program_run.handoff.failed',
]);
const REQUESTED = 'program_run.handoff.requested';
const ATTEMPTED = 'program_run.handoff.attempted';

/**
 * What an attempt record may say about a call the partner answered a given way
 * (`outcome/error_class`): a slow answer may have outlived the connector's timeout, and a
 * retry that no longer fits before the deadline is `exhausted`.
 */
const CONSISTENT: Readonly<Record<string, readonly string[]>> = {
  answer: ['answered/-', 'retrying/timeout', 'exhausted/timeout'],
  twice: ['answered/-', 'retrying/timeout', 'exhausted/timeout'],
  accept: ['accepted/-'],
  fail: ['retrying/http_5xx', 'exhausted/http_5xx'],
  drop: ['retrying/connection', 'exhausted/connection'],
};

/** A connector-side timeout: the answer did not reach the connector within its limit. */
const TIMED_OUT = new Set(['retrying/timeout', 'exhausted/timeout']);

/** A string field of a record's data ('' when absent or not a string). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** One handoff of a run, as its records tell it. */
export interface AuditedHandoff {
  readonly runId: string;
  readonly step: string;
  readonly attempt: number;
  readonly idempotencyKey: string;
  /** Answer records (confirmed, rejected, failed) of this (step, attempt). */
  readonly answers: number;
  /** `handoff.attempted` records of this handoff. */
  readonly attempted: readonly LifecycleRecord[];
}

/** What {@link auditHandoffs} found. */
export interface HandoffAudit {
  readonly handoffs: readonly AuditedHandoff[];
  /** One line per broken promise; empty when all hold. */
  readonly problems: readonly string[];
}

/** Options of {@link auditHandoffs}. */
export interface HandoffAuditOptions {
  /** Parties whose handoffs go through the stub (others are not checked against calls). */
  readonly parties: readonly string[];
  /** Every handoff of these parties must be answered once (the runs finished). @default true */
  readonly requireAnswered?: boolean;
  /**
   * The connector's limit per call. When given, an attempt recorded as a timeout is
   * consistent with any behaviour of the partner if the record's own `duration_ms` reached
   * the limit: on a loaded host an answer sent at once can still reach the connector late.
   * A timeout recorded sooner than the limit stays a problem.
   */
  readonly connectorTimeoutMs?: number;
}

/**
 * Audits the handoffs in `histories` (run id → its records in sequence order) against
 * `calls` (everything the partner stub received).
 *
 * @example
 * ```ts
 * const { problems } = auditHandoffs(histories, partner.calls, { parties: ['chain_analytics'] });
 * expect(problems).toEqual([]);
 * ```
 */
export function auditHandoffs(
  histories: ReadonlyMap<string, readonly LifecycleRecord[]>,
  calls: readonly PartnerCall[],
  options: HandoffAuditOptions,
): HandoffAudit {
  const problems: string[] = [];
  const handoffs: AuditedHandoff[] = [];
  const callsByKey = new Map<string, PartnerCall[]>();
  for (const call of calls) {
    if (!call.verified) problems.push(`call ${call.index} did not verify`);
    if (call.webhookId !== call.idempotencyKey) {
      problems.push(`call ${call.index}: webhook-id ${call.webhookId} ≠ ${call.idempotencyKey}`);
    }
    if (call.request.idempotency_key !== call.idempotencyKey) {
      problems.push(`call ${call.index}: body key ≠ Idempotency-Key ${call.idempotencyKey}`);
    }
    callsByKey.set(call.idempotencyKey, [...(callsByKey.get(call.idempotencyKey) ?? []), call]);
  }
  const known = new Set<string>();
  for (const [runId, records] of histories) {
    const open: { step: string; attempt: number; key: string; record: LifecycleRecord }[] = [];
    const answers = new Map<string, number>();
    const attempted = new Map<string, LifecycleRecord[]>();
    for (const record of records) {
      const step = record.step ?? '';
      if (record.type === REQUESTED) {
        const key = text(record.data.idempotency_key);
        open.push({ step, attempt: Number(record.data.attempt), key, record });
      } else if (ANSWER_TYPES.has(record.type)) {
        // An answer applies to the latest request of its step.
        const request = open.findLast((handoff) => handoff.step === step);
        if (!request) {
          problems.push(`${runId}: ${record.type} of ${step} without a request`);
          continue;
        }
        answers.set(request.key, (answers.get(request.key) ?? 0) + 1);
      } else if (record.type === ATTEMPTED) {
        const key = text(record.data.idempotency_key);
        attempted.set(key, [...(attempted.get(key) ?? []), record]);
      }
    }
    for (const request of open) {
      const party = text(request.record.data.party);
      const answered = answers.get(request.key) ?? 0;
      const ofKey = attempted.get(request.key) ?? [];
      handoffs.push({
        runId,
        step: request.step,
        attempt: request.attempt,
        idempotencyKey: request.key,
        answers: answered,
        attempted: ofKey,
      });
      if (!options.parties.includes(party)) continue;
      known.add(request.key);
      const label = `${runId} ${request.step}#${request.attempt} (${request.key})`;
      if (answered > 1) problems.push(`${label}: applied ${answered} times`);
      if (answered === 0 && (options.requireAnswered ?? true)) {
        problems.push(`${label}: never answered`);
      }
      const received = callsByKey.get(request.key) ?? [];
      if (answered === 1 && received.length === 0)
        problems.push(`${label}: no call reached the partner`);
      for (const call of received) {
        if (call.request.run_id !== runId || call.request.step !== request.step) {
          problems.push(
            `${label}: call ${call.index} carried ${call.request.run_id} ${call.request.step}`,
          );
        }
      }
      const numbers = received.map((call) => call.callNumber);
      if (new Set(numbers).size !== numbers.length) {
        problems.push(`${label}: call numbers repeat: ${numbers.join(', ')}`);
      }
      const recordedCalls = ofKey.map((record) => Number(record.data.call));
      if (new Set(recordedCalls).size !== recordedCalls.length) {
        problems.push(`${label}: attempt records repeat a call: ${recordedCalls.join(', ')}`);
      }
      for (const [index, record] of ofKey.entries()) {
        const number = recordedCalls[index]!;
        const call = received.find((candidate) => candidate.callNumber === number);
        if (!call) {
          problems.push(`${label}: attempt record of call ${number} the partner never got`);
          continue;
        }
        const seen = `${text(record.data.outcome)}/${text(record.data.error_class) || '-'}`;
        const lateForConnector =
          options.connectorTimeoutMs !== undefined &&
          TIMED_OUT.has(seen) &&
          // Timers may fire up to a millisecond early against the rounded duration.
          Number(record.data.duration_ms) >= options.connectorTimeoutMs - 1;
        if (!lateForConnector && !(CONSISTENT[call.behaviour] ?? []).includes(seen)) {
          problems.push(
            `${label}: call ${call.callNumber} (${call.behaviour}) recorded as ${seen}`,
          );
        }
      }
    }
  }
  for (const key of callsByKey.keys()) {
    if (!known.has(key))
      problems.push(`the partner got calls for ${key}, which no audited run requested`);
  }
  return { handoffs, problems };
}
