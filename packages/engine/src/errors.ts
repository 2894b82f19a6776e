import { ProgramrunError } from '@programrun/evidence';

/** A field-level problem, as a JSON pointer into the request (e.g. `/inputs/amount`). */
export interface FieldIssue {
  readonly pointer: string;
  readonly code: string;
  readonly message: string;
}

/** Stable codes the engine throws; `docs/reference/errors.md` maps each to HTTP. */
export type EngineErrorCode =
  | 'scenario_not_found'
  | 'invalid_inputs'
  | 'run_not_found'
  | 'track_not_available'
  | 'run_finished'
  | 'step_not_awaiting'
  | 'approver_already_decided'
  | 'maker_checker_violation'
  | 'cancel_not_allowed'
  | 'handoff_key_mismatch'
  | 'handoff_key_required'
  | 'lead_required'
  | 'evidence_keys_missing'
  | 'invalid_access_request'
  | 'idempotency_key_reused'
  | 'signal_refused'
  | 'scenario_digest_mismatch'
  | 'concurrent_update'
  | 'invalid_account'
  | 'invalid_api_key_request'
  | 'api_key_not_found'
  | 'run_suspended'
  | 'scenario_not_restricted'
  | 'activation_not_found'
  | 'invalid_activation'
  | 'invalid_webhook_endpoint'
  | 'webhook_endpoint_not_found'
  | 'webhook_endpoint_limit'
  | 'webhook_endpoint_url_limit'
  | 'webhook_endpoint_disabled'
  | 'no_webhook_endpoints'
  | 'event_not_found'
  | 'upgrade_not_proven'
  | 'invalid_upgrade_request';

/**
 * An error the engine throws on purpose, with a stable code and, for input problems,
 * the offending fields.
 *
 * @example
 * ```ts
 * try { await engine.createRun(scope, request); } catch (error) {
 *   if (error instanceof EngineError && error.code === 'invalid_inputs') console.log(error.issues);
 * }
 * ```
 */
export class EngineError extends ProgramrunError {
  declare readonly code: EngineErrorCode;
  readonly issues: readonly FieldIssue[];

  constructor(code: EngineErrorCode, message: string, issues: readonly FieldIssue[] = []) {
    super(code, message);
    this.issues = issues;
  }
}
