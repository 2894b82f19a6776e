import type { Migration } from './migration.js';

/**
 * API keys get an actor (who acts with the key; approvals count distinct actors) and
 * scopes (what the key may do). Keys that existed before keep working as they did: their
 * actor is their id and they hold every scope of the time.
 */
export const apiKeyScopesMigration: Migration = {
  version: 4,
  name: 'api_key_scopes',
  sql: (schema) => `
ALTER TABLE ${schema}.api_keys ADD COLUMN actor text;
UPDATE ${schema}.api_keys SET actor = id;
ALTER TABLE ${schema}.api_keys ALTER COLUMN actor SET NOT NULL;
ALTER TABLE ${schema}.api_keys ADD COLUMN scopes json NOT NULL
  DEFAULT '["runs:read","runs:write","approvals:decide","handoffs:answer","evidence:export","webhooks:manage"]';
ALTER TABLE ${schema}.api_keys ALTER COLUMN scopes DROP DEFAULT;
`,
};
