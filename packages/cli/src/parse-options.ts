import { parseArgs } from 'node:util';
import { ACTOR_RULE, isActor } from '@programrun/engine';
import { UsageError } from './usage-error.js';

/**
 * Options a command accepts: each a string, or a boolean flag; `multiple` ones may repeat.
 * A string option whose values may begin with a dash (key ids are base64url) says
 * `dashValue`: the argument after it is its value whatever it looks like.
 */
export type OptionSpec = Readonly<
  Record<
    string,
    {
      readonly type: 'string' | 'boolean';
      readonly multiple?: boolean;
      readonly dashValue?: boolean;
    }
  >
>;

/** `--name value` as `--name=value` for the options whose values may begin with a dash. */
function joinDashValues(argv: readonly string[], options: OptionSpec): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const next = argv[index + 1];
    if (argument === '--') return [...joined, ...argv.slice(index)];
    if (options[argument.slice(2)]?.dashValue && argument.startsWith('--') && next !== undefined) {
      joined.push(`${argument}=${next}`);
      index += 1;
    } else joined.push(argument);
  }
  return joined;
}

/** Parsed option values: a repeatable option is a list. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Parses `argv` with node's `parseArgs`, turning its errors into one-line usage errors.
 */
export function parseOptions(
  argv: readonly string[],
  options: OptionSpec,
): { values: OptionValues; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: joinDashValues(argv, options),
      options: Object.fromEntries(
        Object.entries(options).map(([name, { type, multiple }]) => [
          name,
          multiple === undefined ? { type } : { type, multiple },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
    return {
      values: parsed.values as OptionValues,
      positionals: parsed.positionals,
    };
  } catch (error) {
    // Node's message may span lines ("… is ambiguous. … use '--runs=-XYZ'"): keep it all, on one.
    throw new UsageError(
      error instanceof Error ? error.message.replace(/\s*\n\s*/g, ' ') : String(error),
    );
  }
}

/**
 * The value of a required string option.
 */
export function requireOption(values: OptionValues, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/**
 * The value of an optional string option, or `fallback`.
 */
export function stringOption(values: OptionValues, name: string, fallback: string): string;
export function stringOption(values: OptionValues, name: string): string | undefined;
export function stringOption(
  values: OptionValues,
  name: string,
  fallback?: string,
): string | undefined {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

/**
 * The environment `--env` names (`test` or `live`), or `fallback` when it is absent; any
 * other value is a usage error.
 */
export function environmentOption(
  values: OptionValues,
  fallback: 'test' | 'live',
): 'test' | 'live' {
  const value = values.env ?? fallback;
  if (value !== 'test' && value !== 'live') throw new UsageError('--env must be test or live');
  return value;
}

/**
 * The values of a repeatable string option (`--reject a --reject b`); empty when absent.
 */
export function listOption(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/**
 * A whole-number option within `[min, max]`, or `fallback` when absent.
 */
export function integerOption(
  values: OptionValues,
  name: string,
  range: { readonly min: number; readonly max: number; readonly fallback: number },
): number;
export function integerOption(
  values: OptionValues,
  name: string,
  range: { readonly min: number; readonly max: number },
): number | undefined;
export function integerOption(
  values: OptionValues,
  name: string,
  range: { readonly min: number; readonly max: number; readonly fallback?: number },
): number | undefined {
  const value = values[name];
  if (value === undefined) return range.fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < range.min || number > range.max)
    throw new UsageError(
      `--${name} must be a whole number from ${range.min} to ${range.max}, not "${String(value)}"`,
    );
  return number;
}

/** The `--actor` option (who acts: `ops:alice`), checked; undefined when absent. */
export function actorOption(values: OptionValues): string | undefined {
  const value = values.actor;
  if (value === undefined) return undefined;
  if (!isActor(value)) throw new UsageError(`--actor: ${ACTOR_RULE}`);
  return value;
}
