// Every statement the store runs can be answered from an index: the whole contract suite
// runs with sequential scans disabled while each statement is EXPLAINed first, and no plan
// may scan a table. (Tiny test tables would otherwise make the planner prefer scans.)
import { describe, expect, it } from 'vitest';
import { defineStoreContract } from '@programrun/engine/store-contract';
import type { SqlExecutor } from '../src/index.js';
import { usePGliteSchemas } from './support/pglite-schemas.js';

const plans = new Map<string, string>();

/** Runs each statement after recording its plan (inserts have none worth checking). */
const explaining = (sql: SqlExecutor): SqlExecutor => ({
  async query(text, params = [], options = {}) {
    if (!/^\s*INSERT\b/i.test(text) && !/pg_advisory/i.test(text)) {
      const { rows } = await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params, {
        read: true,
      });
      plans.set(text, rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
    return sql.query(text, params, options);
  },
  script: (text) => sql.script(text),
  begun: () => sql.begun(),
});

defineStoreContract(
  'pglite, every statement EXPLAINed',
  usePGliteSchemas('plans', async (sql) => {
    await sql.query('SET LOCAL enable_seqscan = off');
    return explaining(sql);
  }),
);

describe('query plans', () => {
  it('never scan a whole table', () => {
    expect(plans.size).toBeGreaterThan(25);
    const scans = [...plans].filter(([, plan]) => /Seq Scan/.test(plan));
    expect(scans.map(([text, plan]) => `${text.trim().slice(0, 120)}\n${plan}`)).toEqual([]);
  });
});
