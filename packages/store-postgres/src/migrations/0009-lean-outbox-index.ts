import type { Migration } from './migration.js';

/**
 * Fewer index writes per lifecycle record: the outbox's `position` comes from its own
 * sequence, so its UNIQUE constraint proved nothing and cost one index entry per event;
 * every event list and cursor reads the `(account, environment, …, position)` indexes.
 */
export const leanOutboxIndexMigration: Migration = {
  version: 9,
  name: 'lean_outbox_index',
  sql: (schema) => `
ALTER TABLE ${schema}.webhook_events DROP CONSTRAINT webhook_events_position_key;
`,
};
