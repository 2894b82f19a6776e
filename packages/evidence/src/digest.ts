import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalize } from './canonical-json.js';

/** A sha-256 digest written as `sha256:<64 lowercase hex digits>`. */
export type Sha256Digest = `sha256:${string}`;

/**
 * The `sha256:<hex>` digest of a string's UTF-8 bytes or of raw bytes.
 *
 * @example
 * ```ts
 * sha256Digest('abc'); // 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Digest(data: string | Uint8Array): Sha256Digest {
  const bytes = typeof data === 'string' ? utf8ToBytes(data) : data;
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

/**
 * The digest of a value's RFC 8785 canonical JSON: equal values give equal digests
 * whatever their key order. Used for scenario digests, input digests and record hashes.
 *
 * @example
 * ```ts
 * canonicalDigest({ b: 1, a: 2 }) === canonicalDigest({ a: 2, b: 1 }); // true
 * ```
 */
export function canonicalDigest(value: unknown): Sha256Digest {
  return sha256Digest(canonicalize(value));
}

/**
 * True when `value` has the `sha256:<64 hex>` form.
 *
 * @example
 * ```ts
 * isSha256Digest('sha256:' + '0'.repeat(64)); // true
 * ```
 */
export function isSha256Digest(value: unknown): value is Sha256Digest {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}
