import {
  isEvidenceEnvironment,
  isSha256Digest,
  type EvidenceExpectations,
} from '@programrun/evidence';
import type { OptionSpec, OptionValues } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/** The options of `programrun verify` that pin what the evidence must be about. */
export const EXPECTATION_OPTIONS = {
  run: { type: 'string' },
  env: { type: 'string' },
  environment: { type: 'string' },
  scenario: { type: 'string' },
  'scenario-digest': { type: 'string' },
  // Key ids are base64url thumbprints: one in 64 begins with a dash.
  kid: { type: 'string', dashValue: true },
} as const satisfies OptionSpec;

/** The usage line of those options. */
export const EXPECTATION_USAGE =
  '[--run <prun_…>] [--env test|live] [--scenario <name>@v<N>] [--scenario-digest sha256:…] [--kid <kid>]';

/** An option's value checked against its form, with a one-line reason when it is not. */
function checked(
  values: OptionValues,
  name: keyof typeof EXPECTATION_OPTIONS,
  valid: (value: string) => boolean,
  form: string,
): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !valid(value))
    throw new UsageError(`--${name} must be ${form}, not "${String(value)}"`);
  return value;
}

/**
 * The expectations `--run`, `--env` (or `--environment`), `--scenario`, `--scenario-digest`
 * and `--kid` pin, each checked for its form (a usage error names the option).
 */
export function expectationsOf(values: OptionValues): EvidenceExpectations {
  if (
    values.env !== undefined &&
    values.environment !== undefined &&
    values.env !== values.environment
  )
    throw new UsageError('--env and --environment disagree; give one');
  const environment =
    checked(values, 'env', isEvidenceEnvironment, 'test or live') ??
    checked(values, 'environment', isEvidenceEnvironment, 'test or live');
  const runId = checked(
    values,
    'run',
    (value) => /^prun_[A-Za-z0-9]+$/.test(value),
    'a run id (prun_…)',
  );
  const scenarioId = checked(
    values,
    'scenario',
    (value) => /^[a-z][a-z0-9]*(-[a-z0-9]+)*@v[1-9][0-9]*$/.test(value),
    'a scenario id and version such as wallet-delivery@v1',
  );
  const scenarioDigest = checked(
    values,
    'scenario-digest',
    isSha256Digest,
    'sha256: and 64 lowercase hex digits',
  );
  const kid = checked(
    values,
    'kid',
    (value) => /^[A-Za-z0-9_-]{43}$/.test(value),
    'a key id (the 43-character RFC 7638 thumbprint in the JWKS)',
  );
  return {
    ...(runId === undefined ? {} : { runId }),
    ...(environment === undefined ? {} : { environment: environment as 'test' | 'live' }),
    ...(scenarioId === undefined ? {} : { scenarioId }),
    ...(scenarioDigest === undefined ? {} : { scenarioDigest }),
    ...(kid === undefined ? {} : { kid }),
  };
}
