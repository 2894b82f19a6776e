import type * as NodeCrypto from 'node:crypto';
import { concatBytes } from '@noble/hashes/utils.js';
import { assertSeed, type Ed25519Backend } from './ed25519-backend.js';

// Reached through process.getBuiltinModule so the package has no static node: import.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;

// DER prefixes of PKCS#8 private keys and SPKI public keys for Ed25519 (RFC 8410).
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SPKI_PREFIX = Uint8Array.from([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);

function crypto(): typeof NodeCrypto {
  if (!nodeCrypto)
    throw new Error('node:crypto is not available in this runtime; use tweetnaclBackend');
  return nodeCrypto;
}

function privateKeyOf(seed: Uint8Array): NodeCrypto.KeyObject {
  assertSeed(seed);
  return crypto().createPrivateKey({
    key: Buffer.from(concatBytes(PKCS8_PREFIX, seed)),
    format: 'der',
    type: 'pkcs8',
  });
}

/**
 * Ed25519 on `node:crypto` (OpenSSL): the default on Node.
 *
 * @example
 * ```ts
 * if (nodeBackendAvailable()) createSigner(privateJwk, nodeBackend);
 * ```
 */
export const nodeBackend: Ed25519Backend = {
  name: 'node:crypto',
  publicKeyFromSeed(seed) {
    const spki = crypto()
      .createPublicKey(privateKeyOf(seed))
      .export({ format: 'der', type: 'spki' });
    return new Uint8Array(spki.subarray(SPKI_PREFIX.length));
  },
  signerFor(seed) {
    const key = privateKeyOf(seed);
    return (message) => new Uint8Array(crypto().sign(null, message, key));
  },
  verifyChecked(publicKey, message, signature) {
    const key = crypto().createPublicKey({
      key: Buffer.from(concatBytes(SPKI_PREFIX, publicKey)),
      format: 'der',
      type: 'spki',
    });
    return crypto().verify(null, message, key, signature);
  },
};

/**
 * True when `node:crypto` can be used here.
 *
 * @example
 * ```ts
 * const backend = nodeBackendAvailable() ? nodeBackend : tweetnaclBackend;
 * ```
 */
export function nodeBackendAvailable(): boolean {
  return nodeCrypto !== undefined && typeof nodeCrypto.sign === 'function';
}
