import { ProgramrunError } from '@programrun/evidence';

/** Why a schema could not be brought to this package's version. */
export type MigrationErrorCode = 'schema_too_new' | 'migration_changed' | 'migration_failed';

/**
 * Thrown by {@link migrate} with a stable code; the host should stop rather than run on
 * a schema it does not understand.
 *
 * @example
 * ```ts
 * try { await migrate(database) } catch (error) { if (error instanceof MigrationError) process.exit(1) }
 * ```
 */
export class MigrationError extends ProgramrunError {
  declare readonly code: MigrationErrorCode;
  constructor(code: MigrationErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
