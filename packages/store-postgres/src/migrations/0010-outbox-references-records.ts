import type { Migration } from './migration.js';

/**
 * One copy of each lifecycle record: the outbox event a transition writes for a record
 * keeps no body of its own (NULL) and the store derives it from the record when the event
 * is read, so the record's content is written once instead of twice. Events written
 * before, and account-level events, keep their bodies.
 */
export const outboxReferencesRecordsMigration: Migration = {
  version: 10,
  name: 'outbox_references_records',
  sql: (schema) => `
ALTER TABLE ${schema}.webhook_events ALTER COLUMN body DROP NOT NULL;
`,
};
