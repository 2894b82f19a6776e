import { UsageError } from '../usage-error.js';

/** The variable that bounds the reference server's drain when it stops. */
export const SHUTDOWN_TIMEOUT_VARIABLE = 'PROGRAMRUN_SHUTDOWN_TIMEOUT_MS';

/** The drain's bound when the variable is not set. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: how long a stopping server lets requests, connector calls
 * and webhook deliveries in flight finish (default 10000, from 0 to 3600000); anything else
 * is a usage error.
 */
export function shutdownTimeoutMs(
  environment: Readonly<Record<string, string | undefined>>,
): number {
  const value = environment[SHUTDOWN_TIMEOUT_VARIABLE]?.trim();
  if (value === undefined || value === '') return DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const ms = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(ms <= 3_600_000))
    throw new UsageError(
      `${SHUTDOWN_TIMEOUT_VARIABLE} must be a whole number of milliseconds from 0 to 3600000, not "${value}"`,
    );
  return ms;
}
