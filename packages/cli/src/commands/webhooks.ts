import { createEngine } from '@programrun/engine';
import { parseOptions } from '../parse-options.js';
import {
  referenceWebhookSecretKeys,
  WEBHOOK_SECRET_KEY_VARIABLE,
} from '../serve/webhook-secret-keys.js';
import type { StoreOpener } from '../store/open-store.js';
import { CommandFailure } from '../command.js';
import { UsageError } from '../usage-error.js';
import type { Output } from './verify.js';

export const WEBHOOKS_USAGE = `usage:
  programrun webhooks reseal-secrets [--json]

Seals every webhook endpoint's signing secret with the newest key of PROGRAMRUN_SECRET_KEY
(base64 of 32 bytes, newest first, comma-separated; else the key the reference server keeps
in its data directory): secrets written before a key was set, and those of older keys,
which must still be listed.`;

/**
 * `programrun webhooks reseal-secrets`: seals the signing secrets of every endpoint in the
 * store `PROGRAMRUN_STORE` names with the current webhook secret key, after a key was
 * first configured or rotated. Fails (exit 1) when an endpoint's secret was sealed with a
 * key that is not listed.
 *
 * @example
 * ```ts
 * await webhooksCommand(['reseal-secrets'], output, openStore, process.env);
 * ```
 */
export async function webhooksCommand(
  argv: readonly string[],
  output: Output,
  openStore: StoreOpener,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseOptions(rest, { json: { type: 'boolean' } });
  if (action !== 'reseal-secrets') throw new UsageError(WEBHOOKS_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]!}`);
  const opened = await openStore();
  try {
    if (!opened.durable) {
      throw new UsageError(
        'webhooks reseal-secrets needs the durable store your server uses; PROGRAMRUN_STORE=memory holds no endpoints between commands',
      );
    }
    const dataDir =
      (opened.kind === 'embedded' || opened.kind === 'pglite') && opened.location
        ? opened.location
        : null;
    const { keys, source } = await referenceWebhookSecretKeys(environment, dataDir, {
      create: false,
      processKey: false,
    });
    if (keys.length === 0) {
      throw new UsageError(
        `no webhook secret key: set ${WEBHOOK_SECRET_KEY_VARIABLE} (base64 of 32 bytes, e.g. \`openssl rand -base64 32\`)`,
      );
    }
    const engine = createEngine({
      store: opened.store,
      scenarios: [],
      webhooks: { secretKeys: keys },
    });
    const result = await engine.webhooks.resealSecrets();
    if (values.json === true) output.out(JSON.stringify({ key: source.kid, ...result }, null, 2));
    else
      output.out(
        `Sealed the secrets of ${result.resealed} of ${result.endpoints} webhook endpoint(s) with key ${source.kid ?? ''}.`,
      );
    if (result.unopenable.length > 0) {
      throw new CommandFailure(
        `${result.unopenable.length} endpoint(s) have a secret sealed with a key that is not listed (${result.unopenable.join(', ')}); add that key after the newest in ${WEBHOOK_SECRET_KEY_VARIABLE} and run again`,
      );
    }
  } finally {
    await opened.close();
  }
}
