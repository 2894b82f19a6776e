import { KeyError, type Ed25519Backend } from '../ed25519/ed25519-backend.js';
import { defaultBackend } from '../ed25519/default-backend.js';
import { jwkThumbprint, toPublicJwk, type Ed25519PrivateJwk, type Jwks } from './jwk.js';
import { createSigner, type Signer } from './signer.js';

/** A signing key and whether it still signs. */
export interface KeySetEntry {
  readonly key: Ed25519PrivateJwk;
  /** `active` signs new evidence; `retired` keys stay published so old evidence verifies. */
  readonly status: 'active' | 'retired';
}

/** The evidence signing keys of a deployment: one active, any number retired. */
export interface EvidenceKeySet {
  /** The signer of the active key. */
  readonly signer: Signer;
  readonly entries: readonly KeySetEntry[];
  /** Every key, active and retired, as a public JWKS. */
  publicJwks(): Jwks;
  /** A new set where `key` is active and the current active key is retired. */
  rotate(key: Ed25519PrivateJwk): EvidenceKeySet;
}

/**
 * A key set with rotation: exactly one active key signs; retired keys are kept (and
 * published) forever so evidence signed with them still verifies.
 *
 * @example
 * ```ts
 * let keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
 * keys = keys.rotate(generateEd25519Jwk()); // the old key is retired, still in publicJwks()
 * ```
 */
export function createKeySet(
  entries: readonly KeySetEntry[],
  backend: Ed25519Backend = defaultBackend(),
): EvidenceKeySet {
  const active = entries.filter((entry) => entry.status === 'active');
  if (active.length !== 1)
    throw new KeyError(`a key set needs exactly one active key, not ${active.length}`);
  const kids = entries.map((entry) => jwkThumbprint(entry.key));
  if (new Set(kids).size !== kids.length) throw new KeyError('a key set lists the same key twice');
  const signer = createSigner(active[0]!.key, backend);
  return {
    signer,
    entries,
    publicJwks: () => ({ keys: entries.map((entry) => toPublicJwk(entry.key)) }),
    rotate(key) {
      const retired = entries.map((entry) => ({ ...entry, status: 'retired' as const }));
      return createKeySet([...retired, { key, status: 'active' }], backend);
    },
  };
}
