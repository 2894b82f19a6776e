import type { z } from 'zod';
import type { ErrorCode } from '../errors/error-catalogue.js';
import type { Route } from '../router.js';

/**
 * The tags operations are grouped by, with their descriptions.
 *
 * @example
 * ```ts
 * TAGS.Signals; // 'Approvals, partner answers and cancellation: …'
 * ```
 */
export const TAGS = {
  'Program runs': 'Create, list and read runs and their lifecycle records.',
  Signals: 'Approvals, partner answers and cancellation: what moves a waiting run on.',
  Evidence: 'Request-access leads, signed evidence export and the public evidence keys.',
  Scenarios: 'The scenario catalogue a run is created from.',
  Webhooks: 'Endpoints that receive events, signed per Standard Webhooks, and their secrets.',
  Events:
    'Every event of the account (views of lifecycle records), their deliveries and redelivery.',
  'Test helpers': 'Helpers of the test environment (test keys only).',
  OpenAPI: 'This document.',
} as const;

/** A tag of {@link TAGS}. */
export type Tag = keyof typeof TAGS;

/** One success answer of an operation. */
export interface SuccessResponse {
  readonly status: 200 | 201;
  readonly description: string;
  readonly schema: z.ZodType;
  /** @default 'application/json' */
  readonly contentType?: string;
  /** Extra response headers, e.g. `Cache-Control`. */
  readonly headers?: Readonly<Record<string, z.ZodType>>;
}

/**
 * One `/v1` operation as the document describes it: what the route reads and what it can
 * answer. Problems every operation of its kind can produce (401, 429, 500, body
 * and Idempotency-Key problems) are added by `toOperation`; `errors` names the rest.
 *
 * @example
 * ```ts
 * const getRun: OperationSpec = {
 *   method: 'GET', path: '/v1/program-runs/:id', operationId: 'getProgramRun', tag: 'Program runs',
 *   summary: 'Read a run', description: '…', parameters: { path: z.object({ id: runIdParameter }) },
 *   responses: [{ status: 200, description: 'The run.', schema: programRunSchema }],
 *   errors: ['run_not_found'],
 * };
 * ```
 */
export interface OperationSpec {
  readonly method: Route['method'];
  /** The route's path, with `:param` segments as in `Route.path`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description: string;
  /** Served without credentials (`Route.public`). */
  readonly public?: boolean;
  /** How the route treats `Idempotency-Key`. */
  readonly idempotencyKey?: 'required' | 'optional';
  readonly parameters?: {
    readonly path?: z.ZodObject;
    readonly query?: z.ZodObject;
  };
  /** The JSON body, parsed with the same schema the route uses. */
  readonly body?: {
    readonly schema: z.ZodType;
    /** False when an empty body is accepted (cancel). */
    readonly required: boolean;
  };
  readonly responses: readonly SuccessResponse[];
  /** Problem codes specific to this operation. */
  readonly errors: readonly ErrorCode[];
}

/**
 * Problem codes an operation can answer because of what it is: any request can fail
 * (`internal_error`), authenticated ones can be refused, bodies can be unreadable, and
 * Idempotency-Key has its own protocol.
 *
 * @example
 * ```ts
 * commonErrors({ ...spec, public: true }); // ['internal_error']
 * ```
 */
export function commonErrors(spec: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = ['internal_error'];
  // Credentials are checked, checked for sanity (a host's own authenticate hook) and
  // rate-limited per credential; public routes skip all three.
  if (!spec.public) codes.push('unauthorized', 'invalid_principal', 'rate_limited');
  // The Express adapter refuses any non-GET request whose body another middleware read.
  if (spec.method !== 'GET') codes.push('body_already_read');
  if (spec.body) {
    codes.push(
      'malformed_json',
      'duplicate_json_key',
      'unsupported_media_type',
      'payload_too_large',
      'invalid_request',
    );
  }
  if (spec.idempotencyKey === 'required') codes.push('idempotency_key_missing');
  if (spec.idempotencyKey) {
    codes.push('idempotency_key_invalid', 'idempotency_key_reused', 'idempotency_key_in_use');
  }
  return codes;
}

/**
 * `/v1/program-runs/:id` as an OpenAPI path template, `/v1/program-runs/{id}`.
 *
 * @example
 * ```ts
 * openApiPath('/v1/program-runs/:id/handoffs/:step'); // '/v1/program-runs/{id}/handoffs/{step}'
 * ```
 */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}
