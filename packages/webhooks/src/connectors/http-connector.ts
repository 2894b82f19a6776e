import {
  PermanentConnectorError,
  signatureHeader,
  TransientConnectorError,
  type HandoffConnector,
  type HandoffContext,
  type HandoffRequest,
} from '@programrun/engine';
import { canonicalize } from '@programrun/evidence';
import type { Resolver } from '../guarded-lookup.js';
import { createWebhookAgents, sendWebhook, type WebhookAgents } from '../send-webhook.js';
import { classifyAttempt, HANDOFF_ANSWER_LIMIT } from './classify-attempt.js';

/** The default limit of one attempt: 30 seconds. */
export const DEFAULT_CONNECTOR_TIMEOUT_MS = 30_000;

/** Options of {@link createHttpConnector}. */
export interface HttpConnectorOptions {
  /** The partner's endpoint (https; http only to loopback or in test mode). */
  readonly url: string;
  /** The `whsec_…` secret shared with the partner, signing every request. */
  readonly secret: string;
  /** One attempt, from DNS to the answer's last byte. @default 30_000 */
  readonly timeoutMs?: number;
  /** Local development: allow `localhost`, `127.0.0.0/8` and `::1`. @default false */
  readonly allowLoopback?: boolean;
  /** Host name resolver; defaults to `dns.lookup`. Tests inject DNS answers here. */
  readonly resolve?: Resolver;
  /**
   * Connection pools reused across calls (keep-alive; idle sockets never hold the process
   * open). A socket is only reused by requests with the same loopback policy and resolver,
   * so the SSRF guard's verdict still holds for it.
   * @default one keep-alive pool per connector (`createWebhookAgents()`)
   */
  readonly agents?: WebhookAgents;
}

function bodyOf(request: HandoffRequest, context: HandoffContext): string {
  if (!request.idempotency_key.startsWith('pik_')) {
    throw new PermanentConnectorError(
      'invalid_request',
      'The idempotency key must start with pik_.',
    );
  }
  if (context.idempotencyKey !== request.idempotency_key) {
    throw new PermanentConnectorError(
      'invalid_request',
      'The context idempotency key differs from the request idempotency_key.',
    );
  }
  try {
    return canonicalize(request);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new PermanentConnectorError('invalid_request', `The handoff is not JSON: ${detail}`);
  }
}

/**
 * A connector that hands off over HTTP: give it to `createEngine({ connectors })` for a
 * party and the engine's handoff workers call it. Each attempt POSTs the request as canonical JSON to `url`, signed the Standard
 * Webhooks way (`webhook-id` = the `pik_` key, `webhook-timestamp`, `webhook-signature`)
 * with `Idempotency-Key: pik_…` and `programrun-attempt: n`, through the same SSRF guard
 * as webhook deliveries. See `classifyAttempt` for how answers map to results; a 4xx
 * (other than 408, 409, 429) throws `PermanentConnectorError` rather than inventing a
 * `failed` answer, so every answer a connector returns is one the partner gave.
 *
 * @example
 * ```ts
 * const connector = createHttpConnector({
 *   url: 'https://partner.example.com/programrun/handoffs',
 *   secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
 * });
 * const answer = await connector(request, {
 *   signal: AbortSignal.timeout(60_000),
 *   attempt: 1,
 *   deadline: new Date(Date.now() + 3_600_000),
 *   idempotencyKey: request.idempotency_key,
 * });
 * ```
 */
export function createHttpConnector(options: HttpConnectorOptions): HandoffConnector {
  // Fails now, not on the first handoff, when the secret is not a whsec_ secret.
  signatureHeader([options.secret], 'pik_check', 0, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECTOR_TIMEOUT_MS;
  const agents = options.agents ?? createWebhookAgents();
  return async (request, context) => {
    const body = bodyOf(request, context);
    const remaining = context.deadline.getTime() - Date.now();
    if (remaining <= 0) {
      throw new TransientConnectorError('timeout', 'The handoff deadline has passed.');
    }
    const id = request.idempotency_key;
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await sendWebhook({
      url: options.url,
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([options.secret], id, timestamp, body),
        'idempotency-key': id,
        'programrun-attempt': String(context.attempt),
      },
      body,
      timeoutMs: Math.min(timeoutMs, remaining),
      environment: request.environment,
      allowLoopback: options.allowLoopback ?? false,
      signal: context.signal,
      // One byte over the limit tells a too-large answer from one that fits exactly.
      responseBodyLimit: HANDOFF_ANSWER_LIMIT + 1,
      agents,
      ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
    });
    return classifyAttempt(result);
  };
}
