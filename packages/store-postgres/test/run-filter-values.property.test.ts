// The run list filter columns the store writes with each run (`runFilterValues`) are
// exactly what PostgreSQL generated for them up to schema 12, for any record: the
// expressions of migration 8, evaluated by PGlite on the record's stored JSON text.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createPGliteDatabase } from '../src/index.js';
import { runFilterValues } from '../src/tables/run-filter-columns.js';

const database = await createPGliteDatabase();
afterAll(() => database.close());

/** The generated columns of migration 8, on `$1` as the store stores a record (json). */
const GENERATED = `SELECT $1::json ->> 'stage' AS stage,
  $1::json -> 'awaiting' ->> 'kind' AS awaiting_kind,
  $1::json ->> 'session_id' AS session_id,
  $1::json ->> 'source_path' AS source_path`;

// Any Unicode text PostgreSQL can hold (no NUL: the store refuses it before any statement).
const value = fc
  .jsonValue({ stringUnit: 'grapheme' })
  .filter((json) => !JSON.stringify(json).includes('\\u0000'));
const record = fc.oneof(
  fc.record(
    {
      stage: value,
      awaiting: fc.oneof(value, fc.record({ kind: value, step: value }, { requiredKeys: [] })),
      session_id: value,
      source_path: value,
      id: value,
    },
    { requiredKeys: [] },
  ),
  value,
);

describe('runFilterValues', () => {
  it("reads a record's filter fields as migration 8's generated columns did", async () => {
    await fc.assert(
      fc.asyncProperty(record, async (stored) => {
        const { rows } = await database.session((sql) =>
          sql.query(GENERATED, [JSON.stringify(stored)]),
        );
        expect(runFilterValues(stored)).toEqual(rows[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('takes strings as they are, other values as JSON text, and null or absent as null', () => {
    expect(
      runFilterValues({
        stage: 'release',
        awaiting: { kind: 'approval' },
        session_id: 7,
        source_path: null,
      }),
    ).toEqual({ stage: 'release', awaiting_kind: 'approval', session_id: '7', source_path: null });
    expect(runFilterValues({ awaiting: ['kind'], stage: { a: [1, 'b'] } })).toEqual({
      stage: '{"a":[1,"b"]}',
      awaiting_kind: null,
      session_id: null,
      source_path: null,
    });
    expect(runFilterValues(null).stage).toBeNull();
  });
});
