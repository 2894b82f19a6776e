import { z } from 'zod';
import { prefixedString } from '../schemas/common.js';

/**
 * `Request-Id`: on every response, equal to `request_id` in problem documents.
 */
export const requestIdHeader = z
  .string()
  .regex(/^req_[0-9A-Za-z]{20}$/)
  .meta({
    header: { id: 'RequestId' },
    description: 'Identifies this request; quote it when reporting a problem.',
    examples: ['req_4eC39HqLyjWDarjtT1zd'],
  });

/**
 * `Idempotent-Replayed: true` on a response replayed for a retried Idempotency-Key.
 */
export const idempotentReplayedHeader = z.literal('true').meta({
  header: { id: 'IdempotentReplayed' },
  description:
    'Present on a replay: the stored status and body of the first request with this Idempotency-Key.',
});

/**
 * `Original-Request-Id` on a replay: the `Request-Id` of the request that produced it.
 */
export const originalRequestIdHeader = z
  .string()
  .regex(/^req_[0-9A-Za-z]{20}$/)
  .meta({
    header: { id: 'OriginalRequestId' },
    description: 'On a replay: the `Request-Id` of the request whose response is replayed.',
  });

/**
 * `Retry-After` (seconds) on `429 rate_limited` and `409 idempotency_key_in_use`.
 */
export const retryAfterHeader = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({
    header: { id: 'RetryAfter' },
    description: 'Seconds to wait before retrying.',
    examples: ['1'],
  });

/**
 * `WWW-Authenticate` on 401s and `403 insufficient_scope` (RFC 6750): no error attribute
 * when no credentials were presented, `invalid_token` for a bad one, `insufficient_scope`
 * with the `scope` needed.
 */
export const wwwAuthenticateHeader = prefixedString('Bearer ').meta({
  header: { id: 'WwwAuthenticate' },
  description:
    'The Bearer challenge (RFC 6750): `Bearer realm="programrun"` when no credentials were presented, `error="invalid_token"` when the presented token is not valid, `error="insufficient_scope", scope="…"` naming the scope a 403 lacks.',
  examples: [
    'Bearer realm="programrun"',
    'Bearer realm="programrun", error="invalid_token"',
    'Bearer realm="programrun", error="insufficient_scope", scope="approvals:decide"',
  ],
});

/**
 * `Idempotency-Key` request header: 1–255 visible ASCII characters, e.g. a UUID.
 */
export const idempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/)
  .meta({ examples: ['5f0c6a3e-8d7b-4c1e-9a2f-3b4c5d6e7f80'] });
