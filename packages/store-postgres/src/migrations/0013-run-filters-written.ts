import type { Migration } from './migration.js';

/**
 * The run list filter columns of migration 8 (`stage`, `awaiting_kind`, `session_id`,
 * `source_path`) become plain columns that the store writes with each run, taken from the
 * same fields of its record (`runFilterValues`), instead of columns PostgreSQL generates.
 * A generated column parses the run's whole record (stored as json) once per column on
 * every write: four parses of a kilobyte or more per transition, about a tenth of the
 * server's time per transition. The values already stored stay as they are.
 */
export const runFiltersWrittenMigration: Migration = {
  version: 13,
  name: 'run_filters_written',
  sql: (schema) => `
ALTER TABLE ${schema}.runs
  ALTER COLUMN stage DROP EXPRESSION,
  ALTER COLUMN awaiting_kind DROP EXPRESSION,
  ALTER COLUMN session_id DROP EXPRESSION,
  ALTER COLUMN source_path DROP EXPRESSION;
`,
};
