/**
 * One versioned step of the schema. Published migrations never change: the migrator
 * records each one's checksum and refuses a database whose history differs.
 *
 * @example
 * ```ts
 * const migration: Migration = { version: 4, name: 'run_tags', sql: (s) => `ALTER TABLE ${s}.runs ADD COLUMN tags json` };
 * ```
 */
export interface Migration {
  /** 1, 2, 3, …: applied in order, each exactly once. */
  readonly version: number;
  /** snake_case, for the history table and logs. */
  readonly name: string;
  /** The statements, given the quoted schema name. */
  readonly sql: (schema: string) => string;
}
