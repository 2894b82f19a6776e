import { sealEndpoint } from './sealed-endpoint.js';
import type { WebhooksContext } from './webhooks-context.js';

/** What {@link resealSecrets} did. */
export interface ResealResult {
  /** Endpoints looked at (every scope). */
  readonly endpoints: number;
  /** Endpoints written again with every secret sealed by the current key. */
  readonly resealed: number;
  /** Endpoints with a secret sealed by a key that is not configured (left as they were). */
  readonly unopenable: readonly string[];
}

/**
 * Seals every endpoint's secrets with the current key: readable ones (written before a
 * key was configured) and those sealed with an older key, which must still be configured.
 * One transaction per endpoint, read again inside it, so it runs beside live traffic.
 */
export async function resealSecrets(context: WebhooksContext): Promise<ResealResult> {
  const { engine, secretBox } = context;
  let after = '';
  let endpoints = 0;
  let resealed = 0;
  const unopenable: string[] = [];
  if (secretBox.keyId === null) return { endpoints, resealed, unopenable };
  for (;;) {
    const page = await engine.transactions.run(({ tx }) => tx.scanWebhookEndpoints(after, 100));
    for (const row of page) {
      endpoints += 1;
      if (!row.secrets.some((secret) => secretBox.needsSealing(secret.secret))) continue;
      const written = await engine.transactions.run(async ({ tx }) => {
        const current = await tx.getWebhookEndpoint(row, row.id);
        if (!current) return false;
        const sealed = await sealEndpoint(secretBox, current);
        if (sealed.secrets.some((secret) => secretBox.needsSealing(secret.secret)))
          unopenable.push(row.id);
        if (sealed === current) return false;
        await tx.updateWebhookEndpoint(sealed);
        return true;
      });
      if (written) resealed += 1;
    }
    if (page.length < 100) return { endpoints, resealed, unopenable };
    after = page.at(-1)!.id;
  }
}
