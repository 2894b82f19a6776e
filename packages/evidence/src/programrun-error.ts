const brand = Symbol.for('programrun.error');

/** Options accepted by every programrun error. */
export interface ProgramrunErrorOptions {
  /** The underlying error, kept for logs; never shown to API callers. */
  readonly cause?: unknown;
}

/**
 * Base class of every error programrun throws on purpose: each carries a stable,
 * documented `code` (see `docs/reference/errors.md`). Use {@link isProgramrunError}
 * rather than `instanceof` so the check works across duplicate installs.
 *
 * @example
 * ```ts
 * try {
 *   canonicalize({ amount: 10n });
 * } catch (error) {
 *   if (isProgramrunError(error)) console.log(error.code); // "canonical_json_invalid"
 * }
 * ```
 */
export class ProgramrunError extends Error {
  readonly [brand] = true;
  /** Stable machine-readable code, e.g. `canonical_json_invalid`. */
  readonly code: string;

  constructor(code: string, message: string, options: ProgramrunErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * True when `value` is an error thrown by any programrun package (any installed copy).
 *
 * @example
 * ```ts
 * if (isProgramrunError(error) && error.code === 'hash_chain_broken') alert(error.message);
 * ```
 */
export function isProgramrunError(value: unknown): value is ProgramrunError {
  return typeof value === 'object' && value !== null && brand in value;
}
