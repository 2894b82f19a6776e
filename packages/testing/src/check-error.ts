import { ProgramrunError } from '@programrun/evidence';

/** Stable codes of {@link CheckError}. */
export type CheckErrorCode =
  /** `properties` names a property `checkScenario` does not know. */
  | 'unknown_property'
  /** An option is out of range (`numRuns`, `seed`, `maxActions`, `PROGRAMRUN_PROPERTY_RUNS`). */
  | 'invalid_check_option'
  /** The scenario's input schema leaves nothing to break (no required field, no constraint). */
  | 'no_near_misses'
  /**
   * An input-schema `pattern` strings cannot be generated for: RE2 refuses it, it has no
   * ECMAScript translation, or no generated string matches it.
   */
  | 'unsupported_pattern'
  /** The scenario file given to `scenarioSuite` or `loadCompiledScenario` does not load. */
  | 'scenario_not_loaded'
  /** `scenarioSuite` was called outside vitest, or vitest is not installed. */
  | 'vitest_unavailable';

/**
 * An error of `@programrun/testing`, with a stable code.
 *
 * @example
 * ```ts
 * try { selectProperties(['speed']); } catch (error) {
 *   if (error instanceof CheckError && error.code === 'unknown_property') console.error(error.message);
 * }
 * ```
 */
export class CheckError extends ProgramrunError {
  declare readonly code: CheckErrorCode;

  constructor(code: CheckErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
