import { StoreError } from '@programrun/engine';

/** SQLSTATE codes the store turns into Store spec errors. */
const UNIQUE_VIOLATION = '23505';
/**
 * Values PostgreSQL cannot hold: a character the encoding refuses (NUL), an untranslatable
 * character, a number beyond its column. The store's guard refuses them before any
 * statement; these keep a value it missed a clear `unstorable_value` too.
 */
const UNSTORABLE = new Set(['22021', '22P05', '22003']);
/** A serializable conflict or a deadlock: the engine retries the whole transaction. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * A database error as a {@link StoreError}: unique violations are `duplicate_key`,
 * serialization failures and deadlocks `version_conflict` (retried by the engine),
 * values PostgreSQL cannot hold `unstorable_value`, lost connections `store_unavailable`.
 * Other errors (bugs, bad SQL) pass unchanged.
 */
export function toStoreError(error: unknown, context?: string): unknown {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === UNIQUE_VIOLATION) {
    const detail = (error as { detail?: unknown }).detail;
    return new StoreError('duplicate_key', typeof detail === 'string' ? detail : message, {
      cause: error,
    });
  }
  if (typeof code === 'string' && UNSTORABLE.has(code)) {
    return new StoreError('unstorable_value', message, { cause: error });
  }
  if (typeof code === 'string' && RETRYABLE.has(code)) {
    return new StoreError('version_conflict', message, { cause: error });
  }
  if (
    context !== undefined ||
    (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P'))) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE'].includes(String(code))
  ) {
    return new StoreError(
      'store_unavailable',
      context === undefined ? `database unavailable: ${message}` : `${context}: ${message}`,
      { cause: error },
    );
  }
  return error;
}
