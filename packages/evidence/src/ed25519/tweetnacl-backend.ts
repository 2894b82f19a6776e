import nacl from 'tweetnacl';
import { assertSeed, type Ed25519Backend } from './ed25519-backend.js';

/**
 * Ed25519 on `tweetnacl`: pure JavaScript, for browsers and edge runtimes. Slower than
 * `node:crypto` (about a hundred times for signing), identical results.
 *
 * @example
 * ```ts
 * const signer = createSigner(privateJwk, tweetnaclBackend);
 * ```
 */
export const tweetnaclBackend: Ed25519Backend = {
  name: 'tweetnacl',
  publicKeyFromSeed(seed) {
    assertSeed(seed);
    return nacl.sign.keyPair.fromSeed(seed).publicKey;
  },
  signerFor(seed) {
    assertSeed(seed);
    const { secretKey } = nacl.sign.keyPair.fromSeed(seed);
    return (message) => nacl.sign.detached(message, secretKey);
  },
  verifyChecked: (publicKey, message, signature) =>
    nacl.sign.detached.verify(message, signature, publicKey),
};
