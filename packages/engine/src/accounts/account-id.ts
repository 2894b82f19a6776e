import { EngineError } from '../errors.js';

const ACCOUNT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/**
 * Checks an account id: 1–128 letters, digits, `_`, `.`, `:` or `-`, starting with a
 * letter or digit (e.g. `acct_demo`, a UUID). Accounts are the host's own ids.
 *
 * @example
 * ```ts
 * assertAccountId('acct_demo'); // ok
 * assertAccountId(''); // throws EngineError invalid_account
 * ```
 */
export function assertAccountId(account: unknown): asserts account is string {
  if (typeof account !== 'string' || !ACCOUNT_PATTERN.test(account)) {
    throw new EngineError(
      'invalid_account',
      'An account id is 1–128 letters, digits, "_", ".", ":" or "-", starting with a letter or digit.',
    );
  }
}
