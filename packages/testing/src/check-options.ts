import { CheckError } from './check-error.js';
import type { PropertyResult } from './check-report.js';

/**
 * The properties `checkScenario` checks, in the order it checks them.
 *
 * @example
 * ```ts
 * await checkScenario(compiled, { properties: PROPERTY_NAMES.filter((name) => name !== 'determinism') });
 * ```
 */
export const PROPERTY_NAMES = [
  'inputs-valid',
  'near-miss-refused',
  'determinism',
  'termination',
  'no-stuck-states',
  'invariants',
  'stale-answers-refused',
  'money-conservation',
  'evidence',
] as const;

/** The name of one property of `checkScenario`. */
export type PropertyName = (typeof PROPERTY_NAMES)[number];

/**
 * Cases per property when neither `numRuns` nor `PROGRAMRUN_PROPERTY_RUNS` says otherwise.
 *
 * @example
 * ```ts
 * await checkScenario(compiled, { numRuns: DEFAULT_NUM_RUNS * 10 }); // before publishing a version
 * ```
 */
export const DEFAULT_NUM_RUNS = 100;

/** Options of `checkScenario`. */
export interface CheckOptions {
  /**
   * Cases per property. When absent, `PROGRAMRUN_PROPERTY_RUNS` from the environment,
   * else {@link DEFAULT_NUM_RUNS}.
   */
  readonly numRuns?: number;
  /** fast-check seed; the report's seed replays the same cases. @default random */
  readonly seed?: number;
  /** With `seed`, replays exactly the (shrunk) case at this fast-check path. */
  readonly path?: string;
  /** Most plan actions per trace before the drain. @default 30 */
  readonly maxActions?: number;
  /** Called after each case: cases done and cases planned, over every property. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Only these properties. @default every property */
  readonly properties?: readonly PropertyName[];
  /** The scenario file, named in the CLI replay command. */
  readonly file?: string;
  /** Called after each property with its result and how long it took (milliseconds). */
  readonly onProperty?: (result: PropertyResult, durationMs: number) => void;
  /**
   * Spend each trace property's first runs on the cases a breadth-first search of the
   * scenario's edges found (`exploreEdges`: one case per edge it reached first, up to
   * {@link MAX_DIRECTED_CASES}), the rest on random plans. @default true
   */
  readonly directed?: boolean;
}

/** The most directed cases a trace property runs before its random ones. */
export const MAX_DIRECTED_CASES = 64;

/**
 * Cases per property: the option, else `PROGRAMRUN_PROPERTY_RUNS`, else 100. Throws
 * `invalid_check_option` for anything but a positive integer.
 *
 * @example
 * ```ts
 * resolveNumRuns(undefined, { PROGRAMRUN_PROPERTY_RUNS: '1000' }); // 1000
 * ```
 */
export function resolveNumRuns(
  option: number | undefined,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): number {
  const fromEnvironment = environment.PROGRAMRUN_PROPERTY_RUNS;
  const value =
    option ?? (fromEnvironment === undefined ? DEFAULT_NUM_RUNS : Number(fromEnvironment));
  if (!Number.isInteger(value) || value < 1) {
    throw new CheckError(
      'invalid_check_option',
      option === undefined
        ? `PROGRAMRUN_PROPERTY_RUNS must be a positive integer, not "${fromEnvironment}"`
        : `numRuns must be a positive integer, not ${option}`,
    );
  }
  return value;
}

/**
 * The properties to check, in check order; throws `unknown_property` for a name that is
 * not a property.
 *
 * @example
 * ```ts
 * selectProperties(['invariants', 'termination']); // ['termination', 'invariants']
 * ```
 */
export function selectProperties(names: readonly string[] | undefined): readonly PropertyName[] {
  if (names === undefined) return PROPERTY_NAMES;
  const unknown = names.filter((name) => !(PROPERTY_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new CheckError(
      'unknown_property',
      `Unknown propert${unknown.length === 1 ? 'y' : 'ies'} ${unknown.join(', ')}; the properties are ${PROPERTY_NAMES.join(', ')}.`,
    );
  }
  return PROPERTY_NAMES.filter((name) => names.includes(name));
}

/**
 * Checks the numeric options; throws `invalid_check_option`.
 *
 * @example
 * ```ts
 * assertCheckOptions({ seed: 42, maxActions: 10 });
 * ```
 */
export function assertCheckOptions(options: CheckOptions): void {
  if (options.seed !== undefined && !Number.isInteger(options.seed))
    throw new CheckError('invalid_check_option', `seed must be an integer, not ${options.seed}`);
  if (options.path !== undefined && options.seed === undefined)
    throw new CheckError('invalid_check_option', 'path replays a case only together with its seed');
  if (
    options.maxActions !== undefined &&
    (!Number.isInteger(options.maxActions) || options.maxActions < 0)
  ) {
    throw new CheckError(
      'invalid_check_option',
      `maxActions must be a non-negative integer, not ${options.maxActions}`,
    );
  }
}
