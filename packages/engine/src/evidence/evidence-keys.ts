import type { RunEnvironment } from '@programrun/dsl';
import { jwkThumbprint, KeyError, type EvidenceKeySet, type Jwks } from '@programrun/evidence';
import { EngineError } from '../errors.js';

/**
 * Evidence signing keys per environment: the `test` set signs only test evidence and the
 * `live` set only live evidence, and `GET /v1/evidence-keys` marks each public key with its
 * environment, so a bundle signed by a test key never verifies as live evidence. The two
 * sets must not share a key. An environment without a set cannot export evidence.
 */
export interface EnvironmentEvidenceKeys {
  readonly test?: EvidenceKeySet;
  readonly live?: EvidenceKeySet;
}

/**
 * What `createEngine({ evidence: { keys } })` takes: a set per environment (recommended),
 * or one set that signs both environments, published without an environment (the former
 * option: a verifier cannot tell a test key from a live one).
 */
export type EvidenceKeysOption = EvidenceKeySet | EnvironmentEvidenceKeys;

/** The engine's evidence keys, resolved once from the option. */
export interface EvidenceKeys {
  /** The key set that signs evidence of `environment`, or `evidence_keys_missing`. */
  signing(environment: RunEnvironment): EvidenceKeySet;
  /**
   * The public keys, active and retired, each marked with its environment when the keys
   * are per environment; only those that verify `environment`'s evidence when given.
   * `evidence_keys_missing` when there are none.
   */
  publicJwks(environment?: RunEnvironment): Jwks;
}

const ENVIRONMENTS: readonly RunEnvironment[] = ['test', 'live'];

function missing(environment?: RunEnvironment): EngineError {
  return new EngineError(
    'evidence_keys_missing',
    environment === undefined
      ? 'This deployment has no evidence signing keys: pass createEngine({ evidence: { keys: { test, live } } }).'
      : `This deployment has no evidence signing keys for the ${environment} environment: pass createEngine({ evidence: { keys: { ${environment}: createKeySet(…) } } }).`,
  );
}

/** Refuses per-environment sets that share a key: each environment needs its own. */
function assertDistinct(sets: EnvironmentEvidenceKeys): void {
  const testKids = new Set(sets.test?.entries.map((entry) => jwkThumbprint(entry.key)) ?? []);
  const shared = sets.live?.entries.find((entry) => testKids.has(jwkThumbprint(entry.key)));
  if (shared) {
    throw new KeyError(
      `the test and live evidence key sets share key ${jwkThumbprint(shared.key)}: give each environment its own keys, so that test evidence can never pass for live evidence`,
    );
  }
}

/**
 * The engine's evidence keys from `createEngine`'s option (none: every use answers
 * `evidence_keys_missing`). Throws `invalid_key` when the test and live sets share a key.
 */
export function resolveEvidenceKeys(option: EvidenceKeysOption | undefined): EvidenceKeys {
  if (option === undefined) {
    return {
      signing: (environment) => {
        throw missing(environment);
      },
      publicJwks: () => {
        throw missing();
      },
    };
  }
  if ('signer' in option) {
    return { signing: () => option, publicJwks: () => option.publicJwks() };
  }
  assertDistinct(option);
  return {
    signing(environment) {
      const set = option[environment];
      if (!set) throw missing(environment);
      return set;
    },
    publicJwks(environment) {
      const published = (environment === undefined ? ENVIRONMENTS : [environment]).filter(
        (name) => option[name] !== undefined,
      );
      if (published.length === 0) throw missing(environment);
      return {
        keys: published.flatMap((name) =>
          option[name]!.publicJwks().keys.map((key) => ({ ...key, environment: name })),
        ),
      };
    },
  };
}
