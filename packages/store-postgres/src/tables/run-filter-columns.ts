/** The run list filter columns, written with each run (migration 13), in this order. */
export const RUN_FILTER_COLUMNS = 'stage, awaiting_kind, session_id, source_path';

/** The values of the filter columns of a run, as {@link runFilterValues} takes them. */
export interface RunFilterValues {
  readonly stage: string | null;
  readonly awaiting_kind: string | null;
  readonly session_id: string | null;
  readonly source_path: string | null;
}

/**
 * Field `key` of `value` as PostgreSQL's `->>` reads it from json: a string as it is, any
 * other JSON value as its JSON text, and null when `value` is not an object, has no such
 * field, or the field is null.
 */
function fieldText(value: unknown, key: string): string | null {
  const text = field(value, key);
  if (text === undefined || text === null) return null;
  return typeof text === 'string' ? text : JSON.stringify(text);
}

/** The object field `key` of `value` as PostgreSQL's `->` reads it, undefined when none. */
function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The filter columns of a run with record `record`, exactly as migration 8 generated them:
 * `record ->> 'stage'`, `record -> 'awaiting' ->> 'kind'`, `record ->> 'session_id'` and
 * `record ->> 'source_path'` (a property test holds this to PostgreSQL's own reading).
 */
export function runFilterValues(record: unknown): RunFilterValues {
  return {
    stage: fieldText(record, 'stage'),
    awaiting_kind: fieldText(field(record, 'awaiting'), 'kind'),
    session_id: fieldText(record, 'session_id'),
    source_path: fieldText(record, 'source_path'),
  };
}
