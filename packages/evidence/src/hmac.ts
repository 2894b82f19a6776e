import type * as NodeCrypto from 'node:crypto';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from './bytes.js';

// Like the digests: Node's HMAC where the runtime has node:crypto, @noble/hashes elsewhere.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;

/**
 * HMAC-SHA256 of a UTF-8 message under raw key bytes.
 *
 * @example
 * ```ts
 * base64.encode(hmacSha256(utf8('key'), 'The quick brown fox jumps over the lazy dog'));
 * // '97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg='
 * ```
 */
export function hmacSha256(key: Uint8Array, message: string): Uint8Array {
  if (nodeCrypto)
    return new Uint8Array(nodeCrypto.createHmac('sha256', key).update(message).digest());
  return hmac(sha256, key, utf8(message));
}

/**
 * Whether two strings are equal, in time that depends only on their lengths (for
 * comparing a presented signature or token with the expected one).
 *
 * @example
 * ```ts
 * constantTimeEqual('v1,abc', 'v1,abd'); // false
 * ```
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) difference |= left[index]! ^ right[index]!;
  return difference === 0;
}
