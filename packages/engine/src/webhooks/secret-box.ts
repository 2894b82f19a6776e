import { base64, hex, hmacSha256, utf8, fromUtf8, ProgramrunError } from '@programrun/evidence';

/** How a sealed secret is stored: `sealed:v1:<key id>:<base64 of IV ‖ ciphertext ‖ tag>`. */
const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;

/**
 * A sealed signing secret that cannot be opened: the key that sealed it is not configured,
 * or the value was altered or copied from another endpoint. A host configuration problem,
 * met when a dispatcher prepares a delivery (its `onError` gets it; the delivery stays
 * pending until the key is configured), never answered over HTTP.
 *
 * @example
 * ```ts
 * try {
 *   await engine.webhooks.deliveries.prepare(delivery);
 * } catch (error) {
 *   if (error instanceof WebhookSecretKeyError) console.error(error.message); // names the key id
 * }
 * ```
 */
export class WebhookSecretKeyError extends ProgramrunError {
  declare readonly code: 'webhook_secret_key_missing';

  constructor(message: string) {
    super('webhook_secret_key_missing', message);
  }
}

/** The endpoint a secret belongs to: the associated data of its sealing. */
export interface SecretOwner {
  readonly id: string;
  readonly account: string;
  readonly environment: string;
}

/**
 * Seals webhook signing secrets at rest with AES-256-GCM (WebCrypto, so any runtime),
 * bound to their endpoint (account, environment and endpoint id as associated data) and
 * prefixed with the id of the key that sealed them, so keys can rotate.
 */
export interface WebhookSecretBox {
  /** Id of the key that seals (the first configured); null when secrets are kept readable. */
  readonly keyId: string | null;
  /**
   * What to store for a secret, given as a `whsec_…` secret or as stored: sealed with the
   * current key. Returned as is when it already is, when no key is configured, or when it
   * was sealed with a key not configured (it cannot be opened to seal again).
   */
  seal(value: string, owner: SecretOwner): Promise<string>;
  /**
   * The `whsec_…` secret of a stored value: a readable one as is, a sealed one opened
   * with the key its id names; a {@link WebhookSecretKeyError} when that key is not
   * configured or the value does not open (altered, or copied from another endpoint).
   */
  open(stored: string, owner: SecretOwner): Promise<string>;
  /** Whether `seal` would change a stored value (readable, or sealed with an older key). */
  needsSealing(stored: string): boolean;
}

/**
 * The 32 bytes of a webhook secret key given as base64 (e.g. `openssl rand -base64 32`).
 * Throws a `TypeError` for anything else.
 *
 * @example
 * ```ts
 * parseWebhookSecretKey(process.env.PROGRAMRUN_SECRET_KEY ?? ''); // Uint8Array(32), or throws
 * ```
 */
export function parseWebhookSecretKey(text: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(text.trim());
  } catch {
    throw new TypeError('a webhook secret key is base64 (e.g. `openssl rand -base64 32`)');
  }
  if (bytes.length !== 32) {
    throw new TypeError(
      `a webhook secret key is 32 bytes of base64 (e.g. \`openssl rand -base64 32\`), not ${bytes.length}`,
    );
  }
  return bytes;
}

/**
 * The id a key's sealed values carry: 12 hex digits of an HMAC of a fixed label under the
 * key (names the key without revealing it).
 *
 * @example
 * ```ts
 * webhookSecretKeyId(btoa('k'.repeat(32))); // 12 hex digits, the same for the same key
 * ```
 */
export function webhookSecretKeyId(key: string): string {
  return hex
    .encode(hmacSha256(parseWebhookSecretKey(key), 'programrun webhook secret key id'))
    .slice(0, 12);
}

const associatedData = (owner: SecretOwner): Uint8Array =>
  utf8(
    `programrun webhook secret v1\u0000${owner.account}\u0000${owner.environment}\u0000${owner.id}`,
  );

/** The key id of a sealed value, or null for a readable one. */
const sealedKeyId = (stored: string): string | null =>
  stored.startsWith(SEALED_PREFIX)
    ? stored.slice(SEALED_PREFIX.length, stored.indexOf(':', SEALED_PREFIX.length))
    : null;

/** WebCrypto's key type (named without the DOM library). */
type AesKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const buffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/**
 * A secret box over `keys` (base64, 32 bytes each): the first seals, every one opens.
 * Without keys, secrets are stored readable (and sealed ones cannot be opened).
 */
export function createWebhookSecretBox(keys: readonly string[] = []): WebhookSecretBox {
  const ring = new Map<string, { bytes: Uint8Array; key?: Promise<AesKey> }>();
  for (const key of keys) ring.set(webhookSecretKeyId(key), { bytes: parseWebhookSecretKey(key) });
  const keyId = keys.length > 0 ? webhookSecretKeyId(keys[0]!) : null;

  const cryptoKey = (id: string): Promise<AesKey> | undefined => {
    const entry = ring.get(id);
    if (!entry) return undefined;
    entry.key ??= crypto.subtle.importKey('raw', buffer(entry.bytes), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    return entry.key;
  };

  const missing = (owner: SecretOwner, detail: string): WebhookSecretKeyError =>
    new WebhookSecretKeyError(
      `The signing secret of webhook endpoint ${owner.id} cannot be opened: ${detail}.`,
    );

  const open = async (stored: string, owner: SecretOwner): Promise<string> => {
    const id = sealedKeyId(stored);
    if (id === null) return stored;
    const key = cryptoKey(id);
    if (!key) throw missing(owner, `it was sealed with key ${id}, which is not configured`);
    try {
      const sealed = base64.decode(stored.slice(SEALED_PREFIX.length + id.length + 1));
      const plain = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: buffer(sealed.subarray(0, IV_BYTES)),
          additionalData: buffer(associatedData(owner)),
        },
        await key,
        buffer(sealed.subarray(IV_BYTES)),
      );
      return fromUtf8(new Uint8Array(plain));
    } catch {
      throw missing(owner, `it does not open with key ${id} (altered, or not this endpoint's)`);
    }
  };

  return {
    keyId,
    needsSealing: (stored) => keyId !== null && sealedKeyId(stored) !== keyId,
    async seal(value, owner) {
      if (keyId === null || sealedKeyId(value) === keyId) return value;
      const previous = sealedKeyId(value);
      if (previous !== null && !ring.has(previous)) return value;
      const secret = await open(value, owner);
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv: buffer(iv), additionalData: buffer(associatedData(owner)) },
          await cryptoKey(keyId)!,
          buffer(utf8(secret)),
        ),
      );
      const bytes = new Uint8Array(IV_BYTES + sealed.length);
      bytes.set(iv);
      bytes.set(sealed, IV_BYTES);
      return `${SEALED_PREFIX}${keyId}:${base64.encode(bytes)}`;
    },
    open,
  };
}
