import { coreMigration } from './0001-core.js';
import { webhooksMigration } from './0002-webhooks.js';
import { timerLeasesMigration } from './0003-timer-leases.js';
import type { Migration } from './migration.js';

/**
 * Every migration in version order; the last one is the schema this package reads and writes.
 *
 * @example
 * ```ts
 * MIGRATIONS.at(-1)!.version; // 3
 * ```
 */
export const MIGRATIONS: readonly Migration[] = [
  coreMigration,
  webhooksMigration,
  timerLeasesMigration,
];

/** The schema version this package reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
