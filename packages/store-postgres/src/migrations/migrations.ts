import { coreMigration } from './0001-core.js';
import { webhooksMigration } from './0002-webhooks.js';
import { timerLeasesMigration } from './0003-timer-leases.js';
import { apiKeyScopesMigration } from './0004-api-key-scopes.js';
import { webhookFairClaimsMigration } from './0005-webhook-fair-claims.js';
import { handoffJobsMigration } from './0006-handoff-jobs.js';
import { traceContextMigration } from './0007-trace-context.js';
import { runListFiltersMigration } from './0008-run-list-filters.js';
import { leanOutboxIndexMigration } from './0009-lean-outbox-index.js';
import { outboxReferencesRecordsMigration } from './0010-outbox-references-records.js';
import { oneStatementClaimsMigration } from './0011-one-statement-claims.js';
import { singleAccountClaimsMigration } from './0012-single-account-claims.js';
import { runFiltersWrittenMigration } from './0013-run-filters-written.js';
import type { Migration } from './migration.js';

/**
 * Every migration in version order; the last one is the schema this package reads and writes.
 *
 * @example
 * ```ts
 * MIGRATIONS.at(-1)!.version; // 13
 * ```
 */
export const MIGRATIONS: readonly Migration[] = [
  coreMigration,
  webhooksMigration,
  timerLeasesMigration,
  apiKeyScopesMigration,
  webhookFairClaimsMigration,
  handoffJobsMigration,
  traceContextMigration,
  runListFiltersMigration,
  leanOutboxIndexMigration,
  outboxReferencesRecordsMigration,
  oneStatementClaimsMigration,
  singleAccountClaimsMigration,
  runFiltersWrittenMigration,
];

/** The schema version this package reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
