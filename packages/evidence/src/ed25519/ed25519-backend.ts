import { ProgramrunError } from '../programrun-error.js';

/**
 * An Ed25519 implementation: raw 32-byte seeds and public keys, 64-byte signatures.
 * Two ship with programrun (`node:crypto` and `tweetnacl`); they give byte-identical
 * signatures because Ed25519 is deterministic.
 */
export interface Ed25519Backend {
  readonly name: string;
  /** The public key of a 32-byte seed. */
  publicKeyFromSeed(seed: Uint8Array): Uint8Array;
  /** A signing function bound to a seed (backends prepare the key once). */
  signerFor(seed: Uint8Array): (message: Uint8Array) => Uint8Array;
  /** Verifies after the shared checks of {@link verifyEd25519} have passed. */
  verifyChecked(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
}

/** Thrown for keys of the wrong length or kind. */
export class KeyError extends ProgramrunError {
  constructor(message: string) {
    super('invalid_key', message);
  }
}

/** The group order L = 2^252 + 27742317777372353535851937790883648493. */
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

/** S, the second half of a signature, as a little-endian integer. */
function scalarOf(signature: Uint8Array): bigint {
  let value = 0n;
  for (let index = 63; index >= 32; index -= 1) value = (value << 8n) | BigInt(signature[index]!);
  return value;
}

/**
 * Verifies an Ed25519 signature with any backend, after the checks every backend must
 * share: a 32-byte public key, a 64-byte signature and a canonical S (< L). Some
 * libraries (tweetnacl among them) accept S ≥ L, which makes signatures malleable.
 *
 * @example
 * ```ts
 * verifyEd25519(nodeBackend, publicKey, message, signature); // true or false, never throws
 * ```
 */
export function verifyEd25519(
  backend: Ed25519Backend,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (scalarOf(signature) >= GROUP_ORDER) return false;
  try {
    return backend.verifyChecked(publicKey, message, signature);
  } catch {
    return false;
  }
}

/**
 * Checks a seed is 32 bytes.
 */
export function assertSeed(seed: Uint8Array): void {
  if (seed.length !== 32) throw new KeyError(`an Ed25519 seed has 32 bytes, not ${seed.length}`);
}
