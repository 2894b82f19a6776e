import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** Options a command accepts: each a string, or a boolean flag. */
export type OptionSpec = Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>;

/**
 * Parses `argv` with node's `parseArgs`, turning its errors into one-line usage errors.
 *
 * @example
 * ```ts
 * const { values, positionals } = parseOptions(['--account', 'acct_demo'], { account: { type: 'string' } });
 * values.account; // 'acct_demo'
 * ```
 */
export function parseOptions(
  argv: readonly string[],
  options: OptionSpec,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return {
      values: parsed.values,
      positionals: parsed.positionals,
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

/**
 * The value of a required string option.
 *
 * @example
 * ```ts
 * requireOption(values, 'account'); // throws UsageError "--account is required" when absent
 * ```
 */
export function requireOption(
  values: Record<string, string | boolean | undefined>,
  name: string,
): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
