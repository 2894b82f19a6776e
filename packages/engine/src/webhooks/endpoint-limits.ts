import { EngineError } from '../errors.js';
import type { Scope } from '../store/store-v1.js';
import type { WebhookEndpointRow } from '../store/webhook-spec.js';

/** How many endpoints one scope may register, in all and on one receiver URL. */
export interface EndpointLimits {
  /** Endpoints per account and environment. */
  readonly maxEndpoints: number;
  /** Endpoints of one account and environment on the same receiver (see {@link receiverOf}). */
  readonly maxEndpointsPerUrl: number;
}

/**
 * The receiver an endpoint URL names: its origin and path, without the query, so
 * `https://a.example/hook?x=1` and `https://a.example/hook?x=2` are the same receiver
 * (and `https://A.example:443/hook` too: URLs are normalised when registered).
 */
export function receiverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * Throws `webhook_endpoint_limit` when the scope already has `maxEndpoints` endpoints
 * (creating), and `webhook_endpoint_url_limit` when `url` already has
 * `maxEndpointsPerUrl` of them besides `self` (creating, or moving `self` to `url`).
 */
export function checkEndpointLimits(
  limits: EndpointLimits,
  scope: Scope,
  existing: readonly WebhookEndpointRow[],
  url: string,
  self?: string,
): void {
  const others = existing.filter((endpoint) => endpoint.id !== self);
  if (self === undefined && others.length >= limits.maxEndpoints) {
    throw new EngineError(
      'webhook_endpoint_limit',
      `This account already has ${limits.maxEndpoints} webhook endpoints in ${scope.environment}; delete one first.`,
    );
  }
  const receiver = receiverOf(url);
  const same = others.filter((endpoint) => receiverOf(endpoint.url) === receiver);
  if (same.length >= limits.maxEndpointsPerUrl) {
    throw new EngineError(
      'webhook_endpoint_url_limit',
      `This account already has ${same.length} webhook endpoints in ${scope.environment} on ${receiver} (at most ${limits.maxEndpointsPerUrl}); subscribe one of them (${same.map((endpoint) => endpoint.id).join(', ')}) to more event types instead.`,
      [
        {
          pointer: '/url',
          code: 'url_limit',
          message: `at most ${limits.maxEndpointsPerUrl} endpoints may share a receiver URL`,
        },
      ],
    );
  }
}
