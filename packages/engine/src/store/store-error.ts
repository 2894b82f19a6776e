import { ProgramrunError } from '@programrun/evidence';

/**
 * Codes a store reports; the engine retries `version_conflict`. `unstorable_value`: an
 * argument holds a value no store keeps alike (see `guardStoreTransaction`). `lease_lost`:
 * a transition settling a handoff job found the job no longer held by the settling worker
 * (its transaction must not commit).
 */
export type StoreErrorCode =
  | 'duplicate_key'
  | 'version_conflict'
  | 'not_found'
  | 'store_unavailable'
  | 'unstorable_value'
  | 'lease_lost';

/**
 * An error every store throws with one of the shared codes, so the engine handles
 * conflicts the same way on every store.
 *
 * @example
 * ```ts
 * throw new StoreError('version_conflict', `run ${id} changed since version ${expected}`);
 * ```
 */
export class StoreError extends ProgramrunError {
  declare readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/**
 * True for a {@link StoreError} with `code` from any installed copy.
 *
 * @example
 * ```ts
 * if (isStoreError(error, 'version_conflict')) retry();
 * ```
 */
export function isStoreError(error: unknown, code: StoreErrorCode): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === code &&
    error instanceof Error
  );
}
