// The reference server's evidence signing keys: one per environment, so that test evidence
// can never pass for live evidence. Each comes from its variable, else a file kept in the
// data directory (mode 0600), else it is made for this process.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createKeySet,
  generateEd25519Jwk,
  parseStrictJson,
  type Ed25519PrivateJwk,
  type EvidenceEnvironment,
  type EvidenceKeySet,
} from '@programrun/evidence';
import { UsageError } from '../usage-error.js';
import { keptSecret } from './kept-secret.js';

/** Where one environment's evidence signing key comes from. */
export interface EvidenceKeySource {
  /** The key's id (RFC 7638 thumbprint), as `GET /v1/evidence-keys` lists it. */
  readonly kid: string;
  /**
   * `configured`: the environment variable `variable`; `kept`: the file `file` in the data
   * directory; `process`: made for this process only (memory and PostgreSQL stores).
   */
  readonly source: 'configured' | 'kept' | 'process';
  readonly variable: string | null;
  readonly file: string | null;
}

/** The key sets the engine signs with, and where each key came from. */
export interface ReferenceEvidenceKeys {
  readonly keys: { readonly test: EvidenceKeySet; readonly live: EvidenceKeySet };
  readonly sources: { readonly test: EvidenceKeySource; readonly live: EvidenceKeySource };
}

/** The variable of each environment's key. */
export const EVIDENCE_KEY_VARIABLES = {
  test: 'PROGRAMRUN_EVIDENCE_KEY_TEST',
  live: 'PROGRAMRUN_EVIDENCE_KEY_LIVE',
} as const;
/** The former single key's variable: now the test key. */
export const LEGACY_EVIDENCE_KEY_VARIABLE = 'PROGRAMRUN_EVIDENCE_KEY';
/** The former single key's file in the data directory: adopted as the test key. */
export const LEGACY_EVIDENCE_KEY_FILE = 'evidence-key.jwk';

/** The file that keeps an environment's key in the data directory. */
export const evidenceKeyFile = (environment: EvidenceEnvironment): string =>
  `evidence-key.${environment}.jwk`;

type Variables = Readonly<Record<string, string | undefined>>;

/** The variable that configures `environment`'s key, if one is set. */
function configuredVariable(variables: Variables, environment: EvidenceEnvironment): string | null {
  const own = EVIDENCE_KEY_VARIABLES[environment];
  if (environment === 'test' && variables[LEGACY_EVIDENCE_KEY_VARIABLE]) {
    if (variables[own])
      throw new UsageError(
        `${LEGACY_EVIDENCE_KEY_VARIABLE} is the former name of ${own}: set only ${own}`,
      );
    return LEGACY_EVIDENCE_KEY_VARIABLE;
  }
  return variables[own] ? own : null;
}

async function legacyKeptKey(secretsDir: string): Promise<string | undefined> {
  const text = await readFile(join(secretsDir, LEGACY_EVIDENCE_KEY_FILE), 'utf8').catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  return text?.trim() || undefined;
}

async function keyOf(
  variables: Variables,
  environment: EvidenceEnvironment,
  secretsDir: string | null,
): Promise<{ readonly set: EvidenceKeySet; readonly source: EvidenceKeySource }> {
  const variable = configuredVariable(variables, environment);
  let text: string;
  let where: Omit<EvidenceKeySource, 'kid'>;
  if (variable !== null) {
    text = variables[variable]!;
    where = { source: 'configured', variable, file: null };
  } else if (secretsDir !== null) {
    // A data directory from before keys per environment: its one key becomes the test key.
    const adopted = environment === 'test' ? await legacyKeptKey(secretsDir) : undefined;
    const name = evidenceKeyFile(environment);
    text = (
      await keptSecret(secretsDir, name, () => adopted ?? JSON.stringify(generateEd25519Jwk()))
    ).value;
    where = { source: 'kept', variable: null, file: join(secretsDir, name) };
  } else {
    text = JSON.stringify(generateEd25519Jwk());
    where = { source: 'process', variable: null, file: null };
  }
  const origin = where.variable ?? where.file ?? `the ${environment} evidence key`;
  let key: Ed25519PrivateJwk;
  try {
    key = parseStrictJson(text) as Ed25519PrivateJwk;
  } catch {
    throw new UsageError(`${origin} must be a private Ed25519 JWK (JSON with kty, crv, x, d)`);
  }
  try {
    const set = createKeySet([{ key, status: 'active' }]);
    return { set, source: { kid: set.signer.kid, ...where } };
  } catch (error) {
    throw new UsageError(`${origin}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The reference server's evidence keys, one per environment: test from
 * PROGRAMRUN_EVIDENCE_KEY_TEST (or PROGRAMRUN_EVIDENCE_KEY, its former name), live from
 * PROGRAMRUN_EVIDENCE_KEY_LIVE; without them, each kept in `<data dir>/evidence-key.<env>.jwk`
 * (a former `evidence-key.jwk` becomes the test key), else made for this process. A usage
 * error when a key is not a private Ed25519 JWK or both environments have the same key.
 */
export async function referenceEvidenceKeys(
  variables: Variables,
  secretsDir: string | null,
): Promise<ReferenceEvidenceKeys> {
  const test = await keyOf(variables, 'test', secretsDir);
  const live = await keyOf(variables, 'live', secretsDir);
  if (test.source.kid === live.source.kid) {
    throw new UsageError(
      `the test and live evidence keys are the same key (${test.source.kid}): give each environment its own, so that test evidence can never pass for live evidence`,
    );
  }
  return {
    keys: { test: test.set, live: live.set },
    sources: { test: test.source, live: live.source },
  };
}
