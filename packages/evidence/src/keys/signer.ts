import { defaultBackend } from '../ed25519/default-backend.js';
import { verifyEd25519, type Ed25519Backend } from '../ed25519/ed25519-backend.js';
import {
  jwkThumbprint,
  publicKeyBytes,
  seedBytes,
  type Ed25519PrivateJwk,
  type Ed25519PublicJwk,
} from './jwk.js';

/** Signs messages with one key. */
export interface Signer {
  /** RFC 7638 thumbprint of the public key. */
  readonly kid: string;
  readonly algorithm: 'Ed25519';
  sign(message: Uint8Array): Uint8Array;
}

/** Verifies signatures of one key. */
export interface Verifier {
  readonly kid: string;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

/**
 * A signer for a private JWK (checked: `x` must match `d`).
 *
 * @example
 * ```ts
 * const signer = createSigner(privateJwk);
 * const signature = signer.sign(new TextEncoder().encode('hello'));
 * ```
 */
export function createSigner(
  jwk: Ed25519PrivateJwk,
  backend: Ed25519Backend = defaultBackend(),
): Signer {
  const sign = backend.signerFor(seedBytes(jwk, backend));
  return { kid: jwkThumbprint(jwk), algorithm: 'Ed25519', sign };
}

/**
 * A verifier for a public JWK; it rejects non-canonical signatures (S ≥ L) and wrong
 * lengths whatever the backend.
 *
 * @example
 * ```ts
 * createVerifier(publicJwk).verify(message, signature); // true
 * ```
 */
export function createVerifier(
  jwk: Ed25519PublicJwk,
  backend: Ed25519Backend = defaultBackend(),
): Verifier {
  const publicKey = publicKeyBytes(jwk);
  return {
    kid: jwkThumbprint(jwk),
    verify: (message, signature) => verifyEd25519(backend, publicKey, message, signature),
  };
}
