// The keys that seal webhook signing secrets at rest on the reference server (and that
// `programrun webhooks reseal-secrets` uses): PROGRAMRUN_SECRET_KEY, else a file kept in the
// data directory (mode 0600), else a key made for this process (memory store only: an
// external PostgreSQL keeps secrets readable unless the variable is set, since a key lost at
// exit would leave its sealed secrets unreadable).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseWebhookSecretKey, webhookSecretKeyId } from '@programrun/engine';
import { UsageError } from '../usage-error.js';
import { keptSecret } from './kept-secret.js';

/** The variable with the keys: base64 of 32 bytes each, newest first, comma-separated. */
export const WEBHOOK_SECRET_KEY_VARIABLE = 'PROGRAMRUN_SECRET_KEY';
/** The file in the data directory that keeps them (same format, one or more lines). */
export const WEBHOOK_SECRET_KEY_FILE = 'webhook-secret-key';

/** Where the key that seals webhook secrets comes from. */
export interface WebhookSecretKeySource {
  /** Id of the sealing key (what sealed secrets carry); null when secrets stay readable. */
  readonly kid: string | null;
  /**
   * `configured`: PROGRAMRUN_SECRET_KEY; `kept`: the file `file`; `process`: made for this
   * process (memory store); `none`: no key, secrets stored readable (external PostgreSQL).
   */
  readonly source: 'configured' | 'kept' | 'process' | 'none';
  readonly file: string | null;
}

/** The keys for `createEngine({ webhooks: { secretKeys } })` and where they came from. */
export interface ReferenceWebhookSecretKeys {
  readonly keys: readonly string[];
  readonly source: WebhookSecretKeySource;
}

type Variables = Readonly<Record<string, string | undefined>>;

/** The keys of a variable or file: newest first, separated by commas or white space. */
function parseKeys(text: string, origin: string): string[] {
  const keys = text.split(/[\s,]+/).filter((key) => key !== '');
  if (keys.length === 0) throw new UsageError(`${origin} holds no key`);
  for (const key of keys) {
    try {
      parseWebhookSecretKey(key);
    } catch (error) {
      throw new UsageError(`${origin}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return keys;
}

async function readKept(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text?.trim() || undefined;
}

/**
 * The webhook secret keys of the reference server: PROGRAMRUN_SECRET_KEY, else those kept in
 * `<secretsDir>/webhook-secret-key` (made there, mode 0600, when `create` and absent),
 * else one made for this process when `processKey`, else none.
 */
export async function referenceWebhookSecretKeys(
  variables: Variables,
  secretsDir: string | null,
  options: { readonly create: boolean; readonly processKey: boolean },
): Promise<ReferenceWebhookSecretKeys> {
  const result = (
    keys: string[],
    source: WebhookSecretKeySource['source'],
    file: string | null = null,
  ): ReferenceWebhookSecretKeys => ({
    keys,
    source: { kid: keys.length > 0 ? webhookSecretKeyId(keys[0]!) : null, source, file },
  });
  const configured = variables[WEBHOOK_SECRET_KEY_VARIABLE];
  if (configured) return result(parseKeys(configured, WEBHOOK_SECRET_KEY_VARIABLE), 'configured');
  const newKey = () => randomBytes(32).toString('base64');
  if (secretsDir !== null) {
    const file = join(secretsDir, WEBHOOK_SECRET_KEY_FILE);
    const text = options.create
      ? (await keptSecret(secretsDir, WEBHOOK_SECRET_KEY_FILE, newKey)).value
      : await readKept(file);
    if (text !== undefined) return result(parseKeys(text, file), 'kept', file);
  }
  return options.processKey ? result([newKey()], 'process') : result([], 'none');
}
