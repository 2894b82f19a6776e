import { base64url, utf8 } from '../bytes.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { defaultBackend } from '../ed25519/default-backend.js';
import { KeyError, type Ed25519Backend } from '../ed25519/ed25519-backend.js';
import type { EvidenceEnvironment } from '../environment.js';

/** A public Ed25519 key as a JWK (RFC 8037). */
export interface Ed25519PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  /** base64url of the 32-byte public key. */
  readonly x: string;
  /** RFC 7638 thumbprint. */
  readonly kid?: string;
  readonly use?: 'sig';
  readonly alg?: 'EdDSA' | 'Ed25519';
  /**
   * The one environment whose evidence this key signs (a programrun member of the JWK). A
   * key marked `test` never verifies live evidence, and the reverse. Absent: the key is
   * not bound to an environment (a deployment with one key set for both).
   */
  readonly environment?: EvidenceEnvironment;
}

/** A private Ed25519 key as a JWK: the public fields plus `d`, the 32-byte seed. */
export interface Ed25519PrivateJwk extends Ed25519PublicJwk {
  readonly d: string;
}

/** A JSON Web Key Set of public keys. */
export interface Jwks {
  readonly keys: readonly Ed25519PublicJwk[];
}

function decode32(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string') throw new KeyError(`JWK ${field} must be a base64url string`);
  let bytes: Uint8Array;
  try {
    bytes = base64url.decode(value);
  } catch {
    throw new KeyError(`JWK ${field} is not base64url`);
  }
  if (bytes.length !== 32)
    throw new KeyError(`JWK ${field} must hold 32 bytes, not ${bytes.length}`);
  return bytes;
}

/**
 * The raw public key of an Ed25519 JWK, after checking it is one.
 *
 * @example
 * ```ts
 * publicKeyBytes({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }).length; // 32
 * ```
 */
export function publicKeyBytes(jwk: unknown): Uint8Array {
  const key = jwk as Partial<Ed25519PublicJwk> | null;
  if (key?.kty !== 'OKP' || key.crv !== 'Ed25519')
    throw new KeyError('only OKP Ed25519 JWKs are supported');
  return decode32(key.x, 'x');
}

/**
 * The seed of a private Ed25519 JWK, checking it matches the JWK's `x`.
 */
export function seedBytes(
  jwk: Ed25519PrivateJwk,
  backend: Ed25519Backend = defaultBackend(),
): Uint8Array {
  const seed = decode32(jwk.d, 'd');
  const expected = base64url.encode(backend.publicKeyFromSeed(seed));
  if (jwk.x !== expected) throw new KeyError('JWK x is not the public key of d');
  return seed;
}

/**
 * The RFC 7638 thumbprint of a public key: base64url of sha-256 over
 * `{"crv":"Ed25519","kty":"OKP","x":"…"}`. programrun uses it as the `kid`.
 *
 * @example
 * ```ts
 * jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' });
 * // 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'
 * ```
 */
export function jwkThumbprint(jwk: Ed25519PublicJwk): string {
  publicKeyBytes(jwk);
  const members = `{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`;
  return base64url.encode(sha256(utf8(members)));
}

/**
 * The public JWK of a private one, with `kid`, `use` and `alg` set.
 *
 * @example
 * ```ts
 * toPublicJwk(privateJwk); // { kty: 'OKP', crv: 'Ed25519', x: '…', kid: '…', use: 'sig', alg: 'Ed25519' }
 * ```
 */
export function toPublicJwk(jwk: Ed25519PublicJwk): Ed25519PublicJwk {
  const base = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
  return { ...base, kid: jwkThumbprint(base), use: 'sig', alg: 'Ed25519' };
}

/**
 * A new random Ed25519 private JWK, `kid` set to its thumbprint.
 *
 * @example
 * ```ts
 * const key = generateEd25519Jwk();
 * ```
 */
export function generateEd25519Jwk(backend: Ed25519Backend = defaultBackend()): Ed25519PrivateJwk {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  return privateJwkFromSeed(seed, backend);
}

/**
 * The private JWK of a raw 32-byte seed.
 *
 * @example
 * ```ts
 * privateJwkFromSeed(hex.decode('9d61b19d…7f60')).kid; // 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'
 * ```
 */
export function privateJwkFromSeed(
  seed: Uint8Array,
  backend: Ed25519Backend = defaultBackend(),
): Ed25519PrivateJwk {
  const publicJwk = toPublicJwk({
    kty: 'OKP',
    crv: 'Ed25519',
    x: base64url.encode(backend.publicKeyFromSeed(seed)),
  });
  return { ...publicJwk, d: base64url.encode(seed) };
}
