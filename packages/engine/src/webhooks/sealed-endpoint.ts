import type { WebhookEndpointRow, WebhookSecretRow } from '../store/webhook-spec.js';
import type { WebhookSecretBox } from './secret-box.js';

/** The last four characters of a secret, sealed or not (what the API shows). */
export const lastFour = (secret: WebhookSecretRow): string =>
  secret.last4 ?? secret.secret.slice(-4);

/**
 * An endpoint as written: every secret sealed with the current key (readable ones and
 * those of an older key sealed again), so each write also re-encrypts what it touches.
 * The row itself when nothing changes (no key, or only secrets of keys not configured).
 */
export async function sealEndpoint(
  box: WebhookSecretBox,
  endpoint: WebhookEndpointRow,
): Promise<WebhookEndpointRow> {
  if (!endpoint.secrets.some((secret) => box.needsSealing(secret.secret))) return endpoint;
  let changed = false;
  const secrets = await Promise.all(
    endpoint.secrets.map(async (secret) => {
      const sealed = await box.seal(secret.secret, endpoint);
      if (sealed === secret.secret) return secret;
      changed = true;
      return { ...secret, secret: sealed, last4: lastFour(secret) };
    }),
  );
  return changed ? { ...endpoint, secrets } : endpoint;
}
