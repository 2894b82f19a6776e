import type { Migration } from './migration.js';

/**
 * Trace context: the W3C `traceparent` of the span that created a run, kept with the run
 * and copied onto its handoff jobs and webhook events, so the spans of its timers, calls
 * and deliveries join the run's trace. Nullable: rows written before, or with no tracer
 * recording, have none.
 */
export const traceContextMigration: Migration = {
  version: 7,
  name: 'trace_context',
  sql: (schema) => `
ALTER TABLE ${schema}.runs ADD COLUMN trace_context text;
ALTER TABLE ${schema}.handoff_jobs ADD COLUMN trace_context text;
ALTER TABLE ${schema}.webhook_events ADD COLUMN trace_context text;
`,
};
