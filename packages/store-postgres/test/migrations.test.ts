// Migrations: from an empty database, from the previous schema version with data in it,
// from several hosts at once, and refusals of histories this code does not know.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPgDatabase,
  createPGliteDatabase,
  createSqlStore,
  migrate,
  MIGRATIONS,
  MigrationError,
  SCHEMA_VERSION,
  type SqlDatabase,
} from '../src/index.js';
import { DEFAULT_API_KEY_SCOPES, type RunQuery } from '@programrun/engine';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';

interface Target {
  readonly name: string;
  open(): Promise<{ database: SqlDatabase; schema: string; cleanup(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'pglite',
    async open() {
      const database = await createPGliteDatabase();
      return { database, schema: 'programrun', cleanup: () => database.close() };
    },
  },
  {
    name: 'postgres',
    open() {
      const schema = freshSchema();
      const database = createPgDatabase({
        connectionString: TEST_DATABASE_URL,
        maxConnections: 6,
      });
      return Promise.resolve({
        database,
        schema,
        async cleanup() {
          await database.close();
          await dropSchema(schema);
        },
      });
    },
  },
];

const scope = { account: 'acct_m', environment: 'test' } as const;

for (const target of targets) {
  describe(`migrations on ${target.name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });
    const open = async () => {
      const opened = await target.open();
      cleanup = () => opened.cleanup();
      return opened;
    };

    it('builds the whole schema from an empty database, then has nothing left to do', async () => {
      const { database, schema } = await open();
      expect(await migrate(database, { schema })).toEqual({
        applied: MIGRATIONS.map((migration) => migration.version),
        version: SCHEMA_VERSION,
      });
      expect(await migrate(database, { schema })).toEqual({ applied: [], version: SCHEMA_VERSION });
      const history = await database.session((sql) =>
        sql.query<{ version: number; name: string }>(
          `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
        ),
      );
      expect(history.rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    });

    it('upgrades the previous schema version with its data intact', async () => {
      const { database, schema } = await open();
      expect(await migrate(database, { schema, to: SCHEMA_VERSION - 1 })).toEqual({
        applied: MIGRATIONS.slice(0, -1).map((migration) => migration.version),
        version: SCHEMA_VERSION - 1,
      });
      // A pending timer written by a host on the previous version (no lease column yet).
      await database.transaction((sql) =>
        sql.query(
          `INSERT INTO "${schema}".timers (id, run_id, account, environment, kind, step, attempt, due_at, payload, status)
           VALUES ('tmr_old', 'prun_old', $1, $2, 'wait', 'hold', 1, '2026-01-01T00:00:00.000Z', '{}', 'pending')`,
          [scope.account, scope.environment],
        ),
      );
      expect(await migrate(database, { schema })).toEqual({
        applied: [SCHEMA_VERSION],
        version: SCHEMA_VERSION,
      });
      const store = createSqlStore(database, `"${schema}"`);
      const claimed = await store.transaction((tx) =>
        tx.claimTimers({
          environment: 'test',
          due_at: '2026-01-02T00:00:00.000Z',
          lease_now: '2026-01-01T00:00:00.000Z',
          lease_until: '2026-01-01T00:01:00.000Z',
          limit: 10,
        }),
      );
      expect(claimed).toEqual([
        {
          id: 'tmr_old',
          run_id: 'prun_old',
          ...scope,
          kind: 'wait',
          step: 'hold',
          attempt: 1,
          due_at: '2026-01-01T00:00:00.000Z',
          payload: {},
          status: 'pending',
        },
      ]);
    });

    it('gives API keys from before scopes their id as actor and every scope (version 4)', async () => {
      const { database, schema } = await open();
      await migrate(database, { schema, to: 3 });
      await database.transaction((sql) =>
        sql.query(
          `INSERT INTO "${schema}".api_keys (id, account, environment, secret_hash, last4, description, created_at, revoked_at)
           VALUES ('key_old', 'acct_m', 'test', 'sha256:old', 'x7Qa', null, '2026-01-01T00:00:00.000Z', null)`,
        ),
      );
      await migrate(database, { schema });
      const store = createSqlStore(database, `"${schema}"`);
      expect(await store.transaction((tx) => tx.findApiKeyByHash('sha256:old'))).toEqual({
        id: 'key_old',
        account: 'acct_m',
        environment: 'test',
        secret_hash: 'sha256:old',
        last4: 'x7Qa',
        description: null,
        actor: 'key_old',
        scopes: [...DEFAULT_API_KEY_SCOPES],
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
      });
    });

    it('reads rows from before trace contexts without one (version 7)', async () => {
      const { database, schema } = await open();
      await migrate(database, { schema, to: 6 });
      await database.transaction(async (sql) => {
        await sql.query(
          `INSERT INTO "${schema}".runs (id, account, environment, version, scenario_id, status, created_at, idempotency_key, snapshot, last_sequence, record)
           VALUES ('prun_old', $1, $2, 1, 'wallet-delivery@v1', 'waiting', '2026-01-01T00:00:00.000Z', null, null, 0, '{"id":"prun_old"}')`,
          [scope.account, scope.environment],
        );
        await sql.query(
          `INSERT INTO "${schema}".webhook_events (id, account, environment, type, created, run_id, sequence, body)
           VALUES ('evt_old', $1, $2, 'program_run.created', '2026-01-01T00:00:00.000Z', 'prun_old', 1, '{}')`,
          [scope.account, scope.environment],
        );
        await sql.query(
          `INSERT INTO "${schema}".handoff_jobs (id, run_id, account, environment, party, step, attempt, idempotency_key, request, deadline, status, calls, next_attempt_at, created_at, updated_at)
           VALUES ('hjob_old', 'prun_old', $1, $2, 'bank', 'pay', 1, 'pik_old', '{}', '2026-01-02T00:00:00.000Z', 'queued', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
          [scope.account, scope.environment],
        );
      });
      expect(await migrate(database, { schema })).toEqual({
        applied: MIGRATIONS.filter((migration) => migration.version >= 7).map(
          (migration) => migration.version,
        ),
        version: SCHEMA_VERSION,
      });
      const store = createSqlStore(database, `"${schema}"`);
      await store.transaction(async (tx) => {
        const run = await tx.getRun(scope, 'prun_old');
        expect(run?.id).toBe('prun_old');
        expect(run && 'trace_context' in run).toBe(false);
        const event = await tx.getWebhookEvent(scope, 'evt_old');
        expect(event && 'trace_context' in event).toBe(false);
        const [job] = await tx.handoffJobsOfRun('prun_old');
        expect(job && 'trace_context' in job).toBe(false);
      });
    });

    it('fills the list filter columns of runs from before them, and keeps them current (version 8)', async () => {
      const { database, schema } = await open();
      await migrate(database, { schema, to: 7 });
      const oldRun = (id: string, created: string, record: object) =>
        database.transaction((sql) =>
          sql.query(
            `INSERT INTO "${schema}".runs (id, account, environment, version, scenario_id, status, created_at, idempotency_key, snapshot, last_sequence, record)
             VALUES ($1, $2, $3, 1, 'wallet-delivery@v1', 'waiting', $4, $5, null, 0, $6)`,
            [id, scope.account, scope.environment, created, `key-${id}`, JSON.stringify(record)],
          ),
        );
      await oldRun('prun_old1', '2026-01-01T00:00:00.000Z', {
        id: 'prun_old1',
        stage: 'release',
        awaiting: { kind: 'approval', step: 'release_approval' },
        session_id: 'sess_old',
        source_path: '/demo/wallet',
      });
      await oldRun('prun_old2', '2026-01-02T00:00:00.000Z', {
        id: 'prun_old2',
        stage: 'intake',
        awaiting: null,
        session_id: null,
        source_path: '/demo/wallet',
      });
      // A record with none of the fields (written by hand, or long ago) reads as none.
      await oldRun('prun_old3', '2026-01-03T00:00:00.000Z', { id: 'prun_old3' });
      await migrate(database, { schema, to: 12 });
      const store = createSqlStore(database, `"${schema}"`);
      const ids = (query: Omit<RunQuery, 'limit'>) =>
        store.transaction(async (tx) =>
          (await tx.listRuns(scope, { ...query, limit: 10 })).data.map((run) => run.id),
        );
      expect(await ids({ stage: 'release' })).toEqual(['prun_old1']);
      expect(await ids({ awaiting: 'approval' })).toEqual(['prun_old1']);
      expect(await ids({ q: 'sess_old' })).toEqual(['prun_old1']);
      expect(await ids({ q: '/demo/wallet' })).toEqual(['prun_old2', 'prun_old1']);
      expect(await ids({ q: 'key-prun_old3' })).toEqual(['prun_old3']);
      expect(await ids({})).toEqual(['prun_old3', 'prun_old2', 'prun_old1']);
      // Through schema 12, a host still on schema 7 writes rows without naming the columns:
      // they follow (from schema 13 the store writes them itself).
      await migrate(database, { schema, to: 12 });
      await database.transaction((sql) =>
        sql.query(`UPDATE "${schema}".runs SET version = 2, record = $1 WHERE id = 'prun_old1'`, [
          JSON.stringify({ id: 'prun_old1', stage: 'delivery', awaiting: { kind: 'handoff' } }),
        ]),
      );
      expect(await ids({ stage: 'delivery', awaiting: 'handoff' })).toEqual(['prun_old1']);
      expect(await ids({ awaiting: 'approval' })).toEqual([]);
      expect(await ids({ q: 'sess_old' })).toEqual([]);
    });

    it('keeps the list filter values of runs from before, and writes them with each run (version 13)', async () => {
      const { database, schema } = await open();
      await migrate(database, { schema, to: 12 });
      await database.transaction((sql) =>
        sql.query(
          `INSERT INTO "${schema}".runs (id, account, environment, version, scenario_id, status, created_at, idempotency_key, snapshot, last_sequence, record)
           VALUES ('prun_v12', $1, $2, 1, 'wallet-delivery@v1', 'waiting', '2026-01-01T00:00:00.000Z', 'key-v12', null, 0, $3)`,
          [
            scope.account,
            scope.environment,
            JSON.stringify({
              id: 'prun_v12',
              stage: 'release',
              awaiting: { kind: 'approval', step: 'release_approval' },
              session_id: 'sess_v12',
              source_path: '/demo/v12',
            }),
          ],
        ),
      );
      expect(await migrate(database, { schema })).toEqual({
        applied: MIGRATIONS.filter((migration) => migration.version > 12).map(
          (migration) => migration.version,
        ),
        version: SCHEMA_VERSION,
      });
      const store = createSqlStore(database, `"${schema}"`);
      const ids = (query: Omit<RunQuery, 'limit'>) =>
        store.transaction(async (tx) =>
          (await tx.listRuns(scope, { ...query, limit: 10 })).data.map((run) => run.id),
        );
      // What PostgreSQL generated before stays.
      expect(await ids({ stage: 'release', awaiting: 'approval' })).toEqual(['prun_v12']);
      expect(await ids({ q: 'sess_v12' })).toEqual(['prun_v12']);
      expect(await ids({ q: '/demo/v12' })).toEqual(['prun_v12']);
      // The store writes them from the record it writes.
      const run = (await store.transaction((tx) => tx.getRun(scope, 'prun_v12')))!;
      await store.transaction((tx) =>
        tx.updateRun(
          {
            ...run,
            version: 2,
            record: { ...run.record, stage: 'delivery', awaiting: null, session_id: null },
          },
          1,
        ),
      );
      expect(await ids({ stage: 'delivery' })).toEqual(['prun_v12']);
      expect(await ids({ stage: 'release' })).toEqual([]);
      expect(await ids({ awaiting: 'approval' })).toEqual([]);
      expect(await ids({ q: 'sess_v12' })).toEqual([]);
      expect(await ids({ q: '/demo/v12' })).toEqual(['prun_v12']);
      // PostgreSQL no longer derives them: a write that does not name them leaves them.
      await database.transaction((sql) =>
        sql.query(`UPDATE "${schema}".runs SET version = 3, record = $1 WHERE id = 'prun_v12'`, [
          JSON.stringify({ id: 'prun_v12', stage: 'closing' }),
        ]),
      );
      expect(await ids({ stage: 'closing' })).toEqual([]);
      expect(await ids({ stage: 'delivery' })).toEqual(['prun_v12']);
    });

    it('applies each migration once when several hosts start at the same time', async () => {
      const { database, schema } = await open();
      const results = await Promise.all([0, 1, 2, 3].map(() => migrate(database, { schema })));
      const applied = results.flatMap((result) => result.applied).sort((a, b) => a - b);
      expect(applied).toEqual(MIGRATIONS.map((migration) => migration.version));
      expect(results.every((result) => result.version === SCHEMA_VERSION)).toBe(true);
    });

    it('refuses a schema newer than this package and a migration whose SQL changed', async () => {
      const { database, schema } = await open();
      await migrate(database, { schema });
      const older = MIGRATIONS.slice(0, -1);
      const tooNew = await migrate(database, { schema, migrations: older }).catch(
        (error: unknown) => error,
      );
      expect(tooNew).toBeInstanceOf(MigrationError);
      expect((tooNew as MigrationError).code).toBe('schema_too_new');
      const edited = MIGRATIONS.map((migration, index) =>
        index === 0
          ? { ...migration, sql: (s: string) => `${migration.sql(s)}\n-- edited` }
          : migration,
      );
      const changed = await migrate(database, { schema, migrations: edited }).catch(
        (error: unknown) => error,
      );
      expect((changed as MigrationError).code).toBe('migration_changed');
      expect((changed as Error).message).toMatch(/migration 1 \(core\)/);
    });

    it('rolls back a failing migration and reports it, leaving the earlier ones applied', async () => {
      const { database, schema } = await open();
      const broken = [
        ...MIGRATIONS,
        {
          version: SCHEMA_VERSION + 1,
          name: 'broken',
          sql: (s: string) => `ALTER TABLE ${s}.nope ADD COLUMN x int`,
        },
      ];
      const failure = await migrate(database, { schema, migrations: broken }).catch(
        (error: unknown) => error,
      );
      expect((failure as MigrationError).code).toBe('migration_failed');
      expect(await migrate(database, { schema })).toEqual({ applied: [], version: SCHEMA_VERSION });
    });
  });
}

describe('schema names', () => {
  it('accepts only plain lower-case identifiers', async () => {
    const database = await createPGliteDatabase();
    try {
      await expect(migrate(database, { schema: 'x"; DROP TABLE runs; --' })).rejects.toThrow(
        /lower-case PostgreSQL identifier/,
      );
    } finally {
      await database.close();
    }
  });
});
