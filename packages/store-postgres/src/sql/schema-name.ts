const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The schema name quoted for SQL, after checking it is a plain lower-case identifier
 * (it is spliced into statements, so nothing else is accepted).
 *
 * @example
 * ```ts
 * quoteSchema('programrun'); // '"programrun"'
 * ```
 */
export function quoteSchema(name: string): string {
  if (!SCHEMA_NAME.test(name)) {
    throw new TypeError(
      `schema must be a lower-case PostgreSQL identifier (a-z, 0-9, _; at most 63), not "${name}"`,
    );
  }
  return `"${name}"`;
}
