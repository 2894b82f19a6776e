// What one host reads from its environment, checked before anything connects. Every
// problem is one line for the operator.
import { parseApiKey } from '@programrun/engine';
import {
  createKeySet,
  parseStrictJson,
  type Ed25519PrivateJwk,
  type EvidenceKeySet,
} from '@programrun/evidence';
import { quoteSchema, redactDatabaseUrl } from '@programrun/store-postgres';

/** A host's settings. */
export interface HostConfig {
  /** `postgres://user:password@host:5432/database`. */
  readonly databaseUrl: string;
  /** The URL to print (password replaced by `***`). */
  readonly databaseLabel: string;
  /** Connections of this host's pool. */
  readonly poolSize: number;
  /** PostgreSQL schema of the tables. */
  readonly schema: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** The shared test key of `acct_demo`, or undefined to create a new one. */
  readonly testKey: string | undefined;
  /** Evidence signing keys; every host of a cluster must hold the same ones. */
  readonly evidenceKeys: EvidenceKeySet;
  /** True when the evidence key came from PROGRAMRUN_EVIDENCE_KEY (not generated). */
  readonly evidenceKeyConfigured: boolean;
  /** How long this host holds the timers it claimed. */
  readonly timerLeaseMs: number;
  /** A label for logs (`A`, `B`, …), or undefined. */
  readonly name: string | undefined;
}

/** A setting that cannot work; the message is one line. */
export class HostConfigError extends Error {}

const wholeNumber = (
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number => {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new HostConfigError(
      `${name} must be a whole number from ${min} to ${max}, not "${value}"`,
    );
  }
  return number;
};

function evidenceKeysOf(
  value: string | undefined,
  generate: () => Ed25519PrivateJwk,
): EvidenceKeySet {
  let key: Ed25519PrivateJwk;
  try {
    key = value ? (parseStrictJson(value) as Ed25519PrivateJwk) : generate();
  } catch {
    throw new HostConfigError(
      'PROGRAMRUN_EVIDENCE_KEY must be a private Ed25519 JWK (JSON with kty, crv, x, d)',
    );
  }
  try {
    return createKeySet([{ key, status: 'active' }]);
  } catch (error) {
    throw new HostConfigError(
      `PROGRAMRUN_EVIDENCE_KEY: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Reads a host's settings: `DATABASE_URL` (required), `PROGRAMRUN_POSTGRES_POOL_SIZE`
 * (10), `PROGRAMRUN_POSTGRES_SCHEMA` (`programrun`), `PORT` (8801),
 * `PROGRAMRUN_TEST_KEY`, `PROGRAMRUN_EVIDENCE_KEY`, `PROGRAMRUN_TIMER_LEASE_MS` (60000)
 * and `PROGRAMRUN_HOST_NAME`. Throws {@link HostConfigError} for the first bad one.
 *
 * @example
 * ```ts
 * const config = readHostConfig(process.env, generateEd25519Jwk);
 * config.poolSize; // 10 unless PROGRAMRUN_POSTGRES_POOL_SIZE says otherwise
 * ```
 */
export function readHostConfig(
  environment: Readonly<Record<string, string | undefined>>,
  generateEvidenceKey: () => Ed25519PrivateJwk,
): HostConfig {
  const databaseUrl = environment.DATABASE_URL;
  if (!databaseUrl) {
    throw new HostConfigError(
      'DATABASE_URL is not set; point it at PostgreSQL, e.g. postgres://postgres:secret@127.0.0.1:5432/programrun',
    );
  }
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new HostConfigError(
      `DATABASE_URL must start with postgres:// or postgresql://, not "${redactDatabaseUrl(databaseUrl)}"`,
    );
  }
  const schema = environment.PROGRAMRUN_POSTGRES_SCHEMA || 'programrun';
  try {
    quoteSchema(schema);
  } catch (error) {
    throw new HostConfigError(`PROGRAMRUN_POSTGRES_SCHEMA: ${(error as Error).message}`);
  }
  const testKey = environment.PROGRAMRUN_TEST_KEY || undefined;
  if (testKey !== undefined && parseApiKey(testKey)?.environment !== 'test') {
    throw new HostConfigError(
      'PROGRAMRUN_TEST_KEY is not a programrun test key (pr_test_, 32 letters and digits, a 6-character checksum); leave it unset to create one',
    );
  }
  return {
    databaseUrl,
    databaseLabel: redactDatabaseUrl(databaseUrl),
    poolSize: wholeNumber(
      environment.PROGRAMRUN_POSTGRES_POOL_SIZE,
      'PROGRAMRUN_POSTGRES_POOL_SIZE',
      10,
      1,
      1000,
    ),
    schema,
    port: wholeNumber(environment.PORT, 'PORT', 8801, 0, 65535),
    testKey,
    evidenceKeys: evidenceKeysOf(environment.PROGRAMRUN_EVIDENCE_KEY, generateEvidenceKey),
    evidenceKeyConfigured: Boolean(environment.PROGRAMRUN_EVIDENCE_KEY),
    timerLeaseMs: wholeNumber(
      environment.PROGRAMRUN_TIMER_LEASE_MS,
      'PROGRAMRUN_TIMER_LEASE_MS',
      60_000,
      1_000,
      3_600_000,
    ),
    name: environment.PROGRAMRUN_HOST_NAME || undefined,
  };
}
