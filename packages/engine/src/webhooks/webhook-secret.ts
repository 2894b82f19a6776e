import { base64, constantTimeEqual, hmacSha256 } from '@programrun/evidence';
import type { WebhookSecretRow } from '../store/webhook-spec.js';

const SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks).
 *
 * @example
 * ```ts
 * generateWebhookSecret(); // 'whsec_…'
 * ```
 */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${base64.encode(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/**
 * The HMAC key of a `whsec_` secret: its base64 part, decoded.
 */
export function webhookSecretKey(secret: string): Uint8Array {
  if (!secret.startsWith(SECRET_PREFIX)) throw new TypeError('a webhook secret starts with whsec_');
  return base64.decode(secret.slice(SECRET_PREFIX.length));
}

/**
 * One Standard Webhooks `v1` signature: base64 HMAC-SHA256 over `id.timestamp.body`.
 *
 * @example
 * ```ts
 * signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
 * // 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
 * ```
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = hmacSha256(webhookSecretKey(secret), `${id}.${timestamp}.${body}`);
  return `v1,${base64.encode(mac)}`;
}

/**
 * The secrets that sign at `now`: the current one and any still inside its rotation overlap.
 */
export function activeSecrets(secrets: readonly WebhookSecretRow[], now: Date): WebhookSecretRow[] {
  const at = now.toISOString();
  return secrets.filter((secret) => secret.expires_at === null || secret.expires_at > at);
}

/**
 * The `webhook-signature` header: one `v1,` signature per secret, space-separated.
 *
 * @example
 * ```ts
 * signatureHeader(prepared.secrets, event.id, Math.floor(Date.now() / 1000), body);
 * ```
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}

/**
 * Constant-time check of a `v1,` signature against a secret (for hosts that receive
 * programrun webhooks without the `standardwebhooks` package).
 *
 * @example
 * ```ts
 * verifyWebhookSignature(secret, id, timestamp, body, header); // true
 * ```
 */
export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  header: string,
): boolean {
  const expected = signWebhook(secret, id, timestamp, body);
  return header.split(' ').some((candidate) => constantTimeEqual(candidate, expected));
}
