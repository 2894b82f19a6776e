import type { Migration } from './migration.js';

/**
 * The run list filters of the console: a run's current stage, the kind of step it waits
 * on, its session id and source path, as columns PostgreSQL derives from the stored
 * `record` itself (generated, stored): adding them fills them for every existing run, and
 * every insert or update keeps them current whoever writes the row, a host still on
 * schema 7 included. Stage and awaited kind are indexed newest first for their pages;
 * session ids and source paths (text of any length) by a 64-bit hash, newest first too,
 * so a search by a source path that thousands of runs share still reads one page.
 */
export const runListFiltersMigration: Migration = {
  version: 8,
  name: 'run_list_filters',
  sql: (schema) => `
ALTER TABLE ${schema}.runs
  ADD COLUMN stage text GENERATED ALWAYS AS (record ->> 'stage') STORED,
  ADD COLUMN awaiting_kind text GENERATED ALWAYS AS (record -> 'awaiting' ->> 'kind') STORED,
  ADD COLUMN session_id text GENERATED ALWAYS AS (record ->> 'session_id') STORED,
  ADD COLUMN source_path text GENERATED ALWAYS AS (record ->> 'source_path') STORED;
CREATE INDEX runs_by_stage ON ${schema}.runs (account, environment, stage, created_at DESC, id DESC)
  WHERE stage IS NOT NULL;
CREATE INDEX runs_awaiting ON ${schema}.runs (account, environment, awaiting_kind, created_at DESC, id DESC)
  WHERE awaiting_kind IS NOT NULL;
CREATE INDEX runs_by_session ON ${schema}.runs
  (account, environment, hashtextextended(session_id, 0), created_at DESC, id DESC)
  WHERE session_id IS NOT NULL;
CREATE INDEX runs_by_source_path ON ${schema}.runs
  (account, environment, hashtextextended(source_path, 0), created_at DESC, id DESC)
  WHERE source_path IS NOT NULL;
`,
};
