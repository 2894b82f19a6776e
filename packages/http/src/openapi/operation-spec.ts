import type { BaseAuthScope } from '@programrun/engine';
import type { z } from 'zod';
import type { ErrorCode } from '../errors/error-catalogue.js';

/**
 * The tags operations are grouped by, with their descriptions.
 */
export const TAGS = {
  'Program runs': 'Create, list and read runs and their lifecycle records.',
  Signals: 'Approvals, partner answers and cancellation: what moves a waiting run on.',
  Evidence: 'Request-access leads, signed evidence export and the public evidence keys.',
  Scenarios: 'The scenario catalogue a run is created from.',
  Webhooks: 'Endpoints that receive events, signed per Standard Webhooks, and their secrets.',
  Events:
    'Every event of the account (views of lifecycle records), their deliveries and redelivery.',
  Partners:
    'Parties handoffs go to through a connector: limits, circuit breakers and queued calls.',
  'Test helpers': 'Helpers of the test environment (test keys only).',
  Principal: 'The authenticated caller: who a credential acts as and what it may do.',
  OpenAPI: 'This document.',
  Health:
    'Liveness and readiness probes for load balancers and orchestrators: public, never rate-limited, outside `/v1`.',
} as const;

/** A tag of {@link TAGS}. */
export type Tag = keyof typeof TAGS;

/** One success answer of an operation (or `304 Not Modified`, which has no body). */
export interface SuccessResponse {
  readonly status: 200 | 201 | 304;
  readonly description: string;
  /** The body's schema (a string for a body that is not JSON); none for a `304`. */
  readonly schema?: z.ZodType;
  /** @default 'application/json' */
  readonly contentType?: string;
  /** Extra response headers, e.g. `Cache-Control`. */
  readonly headers?: Readonly<Record<string, z.ZodType>>;
}

/**
 * One `/v1` operation: what its route reads (path parameters, query, body, each a zod
 * schema the route parses with) and what it can answer. The route carries it, and the
 * OpenAPI document is generated from it. Problems every operation of its kind can produce
 * (401, 429, 500, 503, body and Idempotency-Key problems) are added by {@link commonErrors};
 * `errors` names the rest.
 */
export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path with `:param` segments, e.g. `/v1/program-runs/:id`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description: string;
  /** Served without credentials (public keys, this document); the route gets no principal. */
  readonly public?: boolean;
  /**
   * The scope a credential needs (required unless `public`): the handler answers
   * `403 insufficient_scope` without it, and the OpenAPI operation lists it as its
   * security scope. For approvals and handoffs a party-limited form counts, and the
   * route checks the party once it knows the step.
   */
  readonly scope?: BaseAuthScope;
  /**
   * Any authenticated credential may call it, whatever its scopes (`GET /v1/principal`):
   * the one way an authenticated route names no scope.
   */
  readonly anyScope?: boolean;
  /** Answered without the store (the scenario catalogue), so never `503 store_unavailable`. */
  readonly storeFree?: boolean;
  /** Only for test keys: others get `test_mode_only` before the body is read. */
  readonly testOnly?: boolean;
  /** How the route treats `Idempotency-Key`. */
  readonly idempotencyKey?: 'required' | 'optional';
  /** The path parameters (all strings); a value that does not parse is `422 invalid_path`. */
  readonly params?: z.ZodObject;
  /** The query parameters; a value that does not parse is `422 invalid_query`. */
  readonly query?: z.ZodObject;
  /** The JSON body; a body that does not parse is `422 invalid_request`. */
  readonly body?: {
    readonly schema: z.ZodType;
    /** False when an empty body is accepted (read as `{}`). */
    readonly required: boolean;
  };
  readonly responses: readonly SuccessResponse[];
  /** Problem codes specific to this operation. */
  readonly errors: readonly ErrorCode[];
  /**
   * Problem codes whose documents carry more than the `Problem` schema (the checks of
   * `503 not_ready`), with their full schema; such a code must be the only one of its status.
   */
  readonly problemSchemas?: Partial<Readonly<Record<ErrorCode, z.ZodType>>>;
}

/**
 * Problem codes an operation can answer because of what it is: any request can fail
 * (`internal_error`), authenticated ones can be refused, bodies can be unreadable, and
 * Idempotency-Key has its own protocol.
 */
export function commonErrors(spec: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = ['internal_error'];
  // Credentials are checked, checked for sanity (a host's own authenticate hook) and
  // rate-limited per credential; public routes skip all three.
  if (!spec.public)
    codes.push('unauthorized', 'invalid_token', 'invalid_principal', 'rate_limited');
  // A credential without the route's scope is refused.
  if (spec.scope) codes.push('insufficient_scope');
  // Operations that read the store answer 503 when it cannot be reached, and 422 when a
  // value the request checks missed cannot be stored.
  if (!spec.public && !spec.storeFree) codes.push('store_unavailable', 'unstorable_value');
  // Path and query parameters are parsed by their schemas.
  if (spec.params) codes.push('invalid_path');
  if (spec.query) codes.push('invalid_query');
  // The Express adapter refuses any non-GET request whose body another middleware read.
  if (spec.method !== 'GET') codes.push('body_already_read');
  if (spec.testOnly) codes.push('test_mode_only');
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
 */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}
