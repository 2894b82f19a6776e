import type { EngineErrorCode } from '@programrun/engine';

/** Codes only the HTTP layer raises (the engine's are `EngineErrorCode`). */
export type HttpErrorCode =
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'approver_not_authorized'
  | 'rate_limited'
  | 'test_mode_only'
  | 'no_pending_timer'
  | 'too_many_streams'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'malformed_json'
  | 'duplicate_json_key'
  | 'body_already_read'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_request'
  | 'invalid_query'
  | 'invalid_path'
  | 'unstorable_value'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_use'
  | 'invalid_principal'
  | 'store_unavailable'
  | 'not_ready'
  | 'internal_error';

/** What the catalogue says of a code. */
export interface ErrorCatalogueEntry {
  readonly status: number;
  readonly title: string;
  /** What the caller should do. */
  readonly action: string;
  /** Appended to an engine message: how to do over HTTP what it names. */
  readonly hint?: string;
}

/**
 * Every error code the HTTP surface returns: its status, a title, and what the caller
 * should do. The one place codes map to statuses; `docs/reference/errors.md` is
 * generated from it. Exhaustive by type: every engine and HTTP code has an entry, so a
 * new engine code cannot silently become a 500.
 *
 * @example
 * ```ts
 * ERROR_CATALOGUE.run_not_found.status; // 404
 * ```
 */
export const ERROR_CATALOGUE = {
  unauthorized: {
    status: 401,
    title: 'No credentials',
    action:
      'Send `Authorization: Bearer <key>` with an active `pr_test_…` or `pr_live_…` key. The challenge names no error (RFC 6750): nothing was presented.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid API key',
    action:
      'The presented bearer token is not an active key: check it was copied whole, belongs to this host, and was not revoked. Malformed, unknown and revoked keys all get this same answer; repeated failures are rate-limited.',
  },
  insufficient_scope: {
    status: 403,
    title: 'The credential lacks a scope this request needs',
    action:
      'Use a key holding the scope named in the detail and in `WWW-Authenticate` (`scope="…"`), e.g. `programrun keys create --scope approvals:decide`; party-limited scopes (`handoffs:answer:<party>`) cover only that party.',
  },
  approver_not_authorized: {
    status: 403,
    title: 'Not authorized to decide this approval',
    action:
      "Decide with a credential allowed for one of the step's approver parties: a key with `approvals:decide` or `approvals:decide:<party>`, or whatever the host's `authorizeApproval` accepts.",
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    action:
      'Wait the number of seconds in `Retry-After`, then retry (with the same Idempotency-Key for POSTs). Spread bursts out or ask the host for a higher limit. Failed authentications are limited per client too.',
  },
  test_mode_only: {
    status: 403,
    title: 'Test keys only',
    action: 'Call test helpers with a `pr_test_…` key; live environments have no test clock.',
  },
  no_pending_timer: {
    status: 409,
    title: 'No pending timer',
    action:
      'The account has no pending timer (deadline, wait or simulated partner answer) to advance to: its runs are finished or wait on a signal (an approval, a partner answer posted to the API). `GET /v1/test_helpers/clock` shows `next_timer_at`; advance by `seconds` instead, or send the signal the run waits for.',
  },
  too_many_streams: {
    status: 429,
    title: 'Too many open streams',
    action:
      'This credential already holds the most event streams (`GET /v1/program-runs/{id}/stream`) one credential may keep open at once (10 by default); close one (end the fetch) before opening another, or watch fewer runs at a time. Streams end on their own after a final run or 5 minutes.',
  },
  route_not_found: {
    status: 404,
    title: 'No such endpoint',
    action: 'Check the method and path against /v1.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    action: 'Use a method listed in the Allow header.',
  },
  malformed_json: {
    status: 400,
    title: 'Body is not valid JSON',
    action: 'Send a UTF-8 JSON object body (nested at most 256 levels).',
  },
  duplicate_json_key: {
    status: 400,
    title: 'Body names a key twice',
    action:
      'Send each key once per object; the pointer in `errors` names the repeated key. Parsers disagree on which duplicate wins, so programrun refuses them.',
  },
  body_already_read: {
    status: 400,
    title: 'Body already read by another middleware',
    action:
      'Server setup: mount programrun before any body parser (e.g. `express.json()`), so it reads the raw body itself.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported content type',
    action: 'Send `Content-Type: application/json`.',
  },
  payload_too_large: {
    status: 413,
    title: 'Body too large',
    action: 'Keep request bodies under the size limit.',
  },
  invalid_request: {
    status: 422,
    title: 'Invalid request body',
    action: 'Fix the fields named in `errors` (JSON pointers into the body).',
  },
  invalid_query: {
    status: 422,
    title: 'Invalid query parameter',
    action: 'Fix the query parameters named in `errors`.',
  },
  invalid_path: {
    status: 422,
    title: 'Invalid path parameter',
    action:
      'Fix the path parameters named in `errors` (pointers such as `/id`): ids are at most 255 characters without U+0000.',
  },
  unstorable_value: {
    status: 422,
    title: 'Value cannot be stored',
    action:
      'Remove U+0000 and unpaired surrogates from text and keep numbers finite and within range; the request is checked at the edge, so this means a value reached the store another way.',
  },
  idempotency_key_missing: {
    status: 400,
    title: 'Idempotency-Key header required',
    action:
      'Send a unique `Idempotency-Key` (a UUID) with every creation request; reuse it only to retry.',
  },
  idempotency_key_invalid: {
    status: 400,
    title: 'Invalid Idempotency-Key',
    action: 'Use 1–255 visible ASCII characters, e.g. a UUID.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency-Key reused with a different request',
    action: 'Use a new key for a different request; a key may only retry the identical request.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Request with this Idempotency-Key still in progress',
    action: 'Wait and retry with the same key; the first request is still running.',
  },
  scenario_not_found: {
    status: 404,
    title: 'Unknown scenario',
    action: 'Use a scenario id from GET /v1/scenarios, e.g. `wallet-delivery@v1`.',
  },
  invalid_inputs: {
    status: 422,
    title: 'Inputs do not match the scenario',
    action:
      "Fix the inputs named in `errors`; GET /v1/scenarios/{id} shows the scenario's input schema.",
  },
  track_not_available: {
    status: 422,
    title: 'Asset track not available in this environment',
    action:
      'production_placeholder scenarios run only simulated, with a `pr_test_…` key; they cannot run live.',
  },
  lead_required: {
    status: 403,
    title: 'A request-access lead must be linked to the run session',
    action:
      "POST /v1/access-requests with the run's session_id (name, email, company, use_case), then export again; runs created without a session_id cannot export evidence.",
    hint: 'Over HTTP: POST /v1/access-requests with the session_id, name, email, company and use_case.',
  },
  invalid_access_request: {
    status: 422,
    title: 'Invalid access request',
    action: 'Send session_id, name, email, company and use_case.',
  },
  evidence_keys_missing: {
    status: 503,
    title: 'Evidence signing is not configured',
    action:
      "The host must configure evidence signing keys for the run's environment (createEngine({ evidence: { keys: { test, live } } })); each environment signs with its own keys.",
  },
  run_not_found: {
    status: 404,
    title: 'No such run',
    action: 'Check the run id and that the key belongs to its account and environment.',
  },
  invalid_webhook_endpoint: {
    status: 422,
    title: 'Webhook endpoint not valid',
    action:
      'Fix the fields named in `errors`: an absolute https URL (live) that is not a private, loopback, link-local or metadata address, known event types (or `prefix.*`, `*`), a short description.',
  },
  webhook_endpoint_not_found: {
    status: 404,
    title: 'No such webhook endpoint',
    action: 'Check the endpoint id and that the key belongs to its account and environment.',
  },
  webhook_endpoint_limit: {
    status: 409,
    title: 'Too many webhook endpoints',
    action:
      'Delete an endpoint you no longer use (16 per account and environment), or subscribe one endpoint to more event types.',
  },
  webhook_endpoint_url_limit: {
    status: 422,
    title: 'Too many webhook endpoints on one URL',
    action:
      'Subscribe the endpoint already on this URL to more event types (`POST /v1/webhook-endpoints/{id}` with `enabled_events`) instead of registering the URL again (at most 2 per URL, query ignored, per account and environment).',
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: 'Webhook endpoint disabled',
    action:
      'Enable it again with `POST /v1/webhook-endpoints/{id}` and `{"status":"enabled"}` once the receiver works, then redeliver.',
  },
  no_webhook_endpoints: {
    status: 409,
    title: 'No endpoint receives this event',
    action:
      'Register or enable an endpoint subscribed to the event type, or name one with `endpoint`.',
  },
  event_not_found: {
    status: 404,
    title: 'No such event',
    action: 'Check the event id (`evt_…`) and that the key belongs to its account and environment.',
  },
  run_suspended: {
    status: 409,
    title: 'Run suspended until issuer activation',
    action:
      'The account has no issuer activation for this restricted scenario yet; the host activates it (`engine.activations.activate` or `programrun activations activate`), then the run starts by itself. Only cancel is accepted meanwhile.',
  },
  run_finished: {
    status: 409,
    title: 'Run already finished',
    action: 'Finished runs accept no signals; create a new run.',
  },
  step_not_awaiting: {
    status: 409,
    title: 'The run is not waiting for this step',
    action: "Read the run's `awaiting` field and signal the step it names.",
  },
  approver_already_decided: {
    status: 409,
    title: 'Approver already decided',
    action: 'Each approver decides once per approval; another approver must decide.',
  },
  maker_checker_violation: {
    status: 409,
    title: 'Four-eyes rule: approver already approved an earlier step',
    action: 'Have someone who approved no earlier step decide.',
  },
  cancel_not_allowed: {
    status: 409,
    title: 'A partner is executing a step',
    action: 'Cancel after the partner answers the pending handoff.',
  },
  handoff_key_required: {
    status: 422,
    title: 'Live partner answer without its idempotency key',
    action:
      'In live, send the `idempotency_key` (`pik_…`) of the handoff request the answer is for (from `program_run.handoff.requested`).',
  },
  handoff_key_mismatch: {
    status: 409,
    title: 'Partner answer for another attempt',
    action:
      'Answer with the pik_ idempotency key of the current handoff request; earlier attempts were retried.',
  },
  signal_refused: {
    status: 409,
    title: 'Signal not accepted now',
    action: "Read the run's `awaiting` field.",
  },
  concurrent_update: { status: 409, title: 'Concurrent update', action: 'Retry the request.' },
  upgrade_not_proven: {
    status: 422,
    title: 'Upgrade not proven for these versions',
    action:
      'Run `programrun upgrade check` on the two scenario files this host loads (and the migration), then upgrade with that report.',
  },
  invalid_upgrade_request: {
    status: 422,
    title: 'Upgrade names no actor',
    action:
      'Name who moves the runs: an actor such as ops:alice (1–128 characters, no control characters or spaces at either end).',
  },
  scenario_digest_mismatch: {
    status: 500,
    title: 'Scenario changed under a running run',
    action:
      'The host changed a published scenario version; restore it and publish changes as a new version.',
  },
  invalid_principal: {
    status: 500,
    title: 'Host authentication returned an invalid principal',
    action:
      "The host's `authenticate` hook must return `{ account, environment: 'test' | 'live', credentialId, actor?, scopes? }` (a valid actor and known scopes when given) or null; fix the host.",
  },
  invalid_account: {
    status: 400,
    title: 'Invalid account id',
    action: 'Use an account id of 1–128 letters, digits and `_ . : -`.',
  },
  invalid_api_key_request: {
    status: 400,
    title: 'Invalid API key request',
    action:
      'Send a well-formed key of the environment and a short description without control characters.',
  },
  api_key_not_found: {
    status: 404,
    title: 'No such API key',
    action: 'List the account’s keys and use one of their ids.',
  },
  scenario_not_restricted: {
    status: 422,
    title: 'Scenario is not on the restricted track',
    action: 'Issuer activations apply to restricted scenarios only; name one by its scenario name.',
  },
  activation_not_found: {
    status: 404,
    title: 'No issuer activation',
    action: 'Activate the scenario for the account first.',
  },
  invalid_activation: {
    status: 400,
    title: 'Invalid issuer activation',
    action: 'Name a restricted scenario (without version) and a non-empty issuer reference.',
  },
  store_unavailable: {
    status: 503,
    title: 'Store unavailable',
    action:
      'The database could not be reached; retry shortly (with the same Idempotency-Key for POSTs).',
  },
  not_ready: {
    status: 503,
    title: 'Not ready',
    action:
      'This host cannot serve now (`GET /readyz`), and `checks` says why: the store does not answer, its migrations are not current, or a background worker (scheduler, handoff workers, webhook dispatcher) stopped, as during shutdown. Send traffic to another host; it turns ready by itself once the check passes (after the migrations ran, say).',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    action: 'Retry later; report the request_id if it persists.',
  },
} as const satisfies Record<EngineErrorCode | HttpErrorCode, ErrorCatalogueEntry>;

/** A documented error code. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * True when `code` is in the catalogue.
 *
 * @example
 * ```ts
 * isErrorCode('run_not_found'); // true
 * ```
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);
}
