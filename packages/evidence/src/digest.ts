import type * as NodeCrypto from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalize } from './canonical-json.js';

// On Node (and runtimes with its builtins) hash natively; elsewhere (browsers, edge
// runtimes) use @noble/hashes. Both give the same bytes; native is several times faster.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;

type OneShotHash = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
// crypto.hash (Node ≥ 20.12) skips the Hash object; createHash covers older runtimes.
const oneShot = (nodeCrypto as { hash?: OneShotHash } | undefined)?.hash;

function sha256Hex(data: string | Uint8Array): string {
  if (oneShot) return oneShot('sha256', data, 'hex');
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(data).digest('hex');
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
}

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
  return `sha256:${sha256Hex(data)}`;
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
