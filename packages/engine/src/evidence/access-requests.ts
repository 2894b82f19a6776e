import { EngineError } from '../errors.js';
import type { AccessRequestRow, Scope, StoreTransactionV1 } from '../store/store-v1.js';
import type { RunRecord } from '../runs/run-record.js';

/** A request-access lead as the API shows it. */
export interface AccessRequestRecord {
  readonly object: 'access_request';
  readonly id: string;
  readonly session_id: string;
  readonly name: string;
  readonly email: string;
  readonly company: string;
  readonly use_case: string;
  readonly livemode: boolean;
  readonly created_at: string;
}

/** What `createAccessRequest` takes (the body of `POST /v1/access-requests`). */
export interface AccessRequestInput {
  readonly session_id: string;
  readonly name: string;
  readonly email: string;
  readonly company: string;
  readonly use_case: string;
}

/**
 * The API form of a stored lead.
 */
export function toAccessRequestRecord(row: AccessRequestRow): AccessRequestRecord {
  return {
    object: 'access_request',
    id: row.id,
    session_id: row.session_id,
    name: row.name,
    email: row.email,
    company: row.company,
    use_case: row.use_case,
    livemode: row.environment === 'live',
    created_at: row.created_at,
  };
}

/**
 * Checks the fields every lead needs (the HTTP layer validates formats in detail).
 */
export function assertAccessRequest(input: AccessRequestInput): void {
  const missing = (['session_id', 'name', 'email', 'company', 'use_case'] as const).filter(
    (field) => typeof input[field] !== 'string' || input[field].trim() === '',
  );
  if (missing.length > 0) {
    throw new EngineError(
      'invalid_access_request',
      `An access request needs ${missing.join(', ')}.`,
      missing.map((field) => ({
        pointer: `/${field}`,
        code: 'missing_field',
        message: 'is required',
      })),
    );
  }
}

/**
 * The run record with `evidence.exportable` set from whether a lead is linked to the run's
 * session (computed on read, so a lead created later counts at once).
 */
export async function withExportability(
  tx: StoreTransactionV1,
  scope: Scope,
  run: RunRecord,
): Promise<RunRecord> {
  const exportable =
    run.session_id !== null &&
    (await tx.getAccessRequestBySession(scope, run.session_id)) !== undefined;
  return exportable === run.evidence.exportable
    ? run
    : { ...run, evidence: { ...run.evidence, exportable } };
}

/**
 * Throws `lead_required`, saying how to link one, unless evidence of this run may leave.
 */
export async function assertLeadLinked(
  tx: StoreTransactionV1,
  scope: Scope,
  run: RunRecord,
): Promise<void> {
  if (run.session_id === null) {
    throw new EngineError(
      'lead_required',
      `Run ${run.id} was created without a session_id, so no request-access lead can be linked to it. Create runs with a session_id, then link a lead to that session to export their evidence.`,
    );
  }
  if (!(await tx.getAccessRequestBySession(scope, run.session_id))) {
    throw new EngineError(
      'lead_required',
      `Evidence export needs a request-access lead linked to session ${run.session_id}: create an access request with that session_id and the lead's name, email, company and use_case, then retry.`,
    );
  }
}
