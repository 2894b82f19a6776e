// GET /readyz against a real PostgreSQL server: ready while the store answers with its
// migrations current; `503 not_ready` (store unreachable, or no answer in time) while the
// server cannot be reached through a TCP proxy the test cuts, and ready again once it is
// restored; `behind` and `ahead` schemas are not ready either.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '@programrun/engine';
import { createHandler, type Handler } from '@programrun/http';
import {
  createPgDatabase,
  createPostgresStore,
  createSqlStore,
  migrate,
  quoteSchema,
  SCHEMA_VERSION,
  type SqlStore,
} from '../src/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';

/**
 * A TCP proxy on 127.0.0.1 in front of the test server: `cut` stops accepting and drops
 * every connection (the server looks down), `hang` stops forwarding on every connection,
 * old and new (the server looks stuck), `restore` drops what hung and forwards again on
 * the same port.
 */
async function startProxy(target: URL) {
  const pairs = new Set<readonly [Socket, Socket]>();
  const hung = new Set<Socket>();
  let hanging = false;
  let server: Server | undefined;
  const stall = ([client, upstream]: readonly [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    hung.add(client);
  };
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        client.on('error', () => client.destroy());
        if (hanging) {
          hung.add(client);
          return;
        }
        const upstream = connect(Number(target.port), target.hostname);
        upstream.on('error', () => upstream.destroy());
        const pair = [client, upstream] as const;
        pairs.add(pair);
        const drop = () => {
          pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        };
        client.on('close', drop);
        upstream.on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server!.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const dropAll = () => {
    for (const [client] of pairs) client.destroy();
    for (const client of hung) client.destroy();
    hung.clear();
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      dropAll();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  const port = await listen(0);
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: stop,
    hang: () => {
      hanging = true;
      for (const pair of pairs) stall(pair);
    },
    async restore() {
      hanging = false;
      for (const client of hung) client.destroy();
      hung.clear();
      if (!server) await listen(port);
    },
    close: stop,
  };
}

const readyz = (handler: Handler) =>
  handler.handle(new Request('http://programrun.test/readyz')).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  }));

describe('GET /readyz on PostgreSQL', () => {
  const schema = freshSchema();
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let store: SqlStore;
  let engine: Engine;
  let handler: Handler;

  beforeAll(async () => {
    proxy = await startProxy(new URL(TEST_DATABASE_URL));
    store = await createPostgresStore({ connectionString: proxy.url, schema, maxConnections: 4 });
    engine = createEngine({ store, scenarios: [] });
    handler = createHandler({ engine, authenticate: () => null, onError: false });
  });
  afterAll(async () => {
    await proxy.restore();
    await store.close();
    await proxy.close();
    await dropSchema(schema);
  });

  const current = {
    status: 'current',
    schema_version: SCHEMA_VERSION,
    expected_version: SCHEMA_VERSION,
  };

  it('is ready while the server answers and the schema is current', async () => {
    expect(await readyz(handler)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: {
          store: { status: 'ok' },
          migrations: current,
          background: { status: 'running', workers: {} },
        },
      },
    });
  });

  it('turns not_ready when the server is unreachable, and ready again after', async () => {
    await proxy.cut();
    const down = await readyz(handler);
    expect(down).toMatchObject({
      status: 503,
      body: {
        code: 'not_ready',
        detail: 'This host is not ready (store unreachable).',
        checks: {
          store: { status: 'unreachable' },
          migrations: { status: 'unknown', schema_version: null, expected_version: null },
        },
      },
    });
    // Still down on a second probe (no answer is cached), then up once the server is back.
    expect((await readyz(handler)).status).toBe(503);
    await proxy.restore();
    expect(await readyz(handler)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { store: { status: 'ok' }, migrations: current } },
    });
    // The store serves again too.
    await expect(store.transaction((tx) => tx.getTestClock('acct_ready'))).resolves.toBeUndefined();
  });

  it('counts a server that accepts but never answers as a timeout, bounded', async () => {
    proxy.hang();
    const started = performance.now();
    const readiness = await engine.readiness({ timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(readiness).toMatchObject({ ready: false, checks: { store: { status: 'timeout' } } });
    await proxy.restore();
    expect((await readyz(handler)).status).toBe(200);
  });
});

describe('migrations in readiness', () => {
  it('is not ready while migrations are behind, nor when the database is ahead', async () => {
    const schema = freshSchema();
    const database = createPgDatabase({ connectionString: TEST_DATABASE_URL, maxConnections: 2 });
    try {
      await migrate(database, { schema, to: SCHEMA_VERSION - 1 });
      const store = createSqlStore(database, quoteSchema(schema));
      const engine = createEngine({ store, scenarios: [] });
      expect((await engine.readiness()).checks.migrations).toEqual({
        status: 'behind',
        schema_version: SCHEMA_VERSION - 1,
        expected_version: SCHEMA_VERSION,
      });
      await migrate(database, { schema });
      expect(await engine.readiness()).toMatchObject({
        ready: true,
        checks: { migrations: { status: 'current', schema_version: SCHEMA_VERSION } },
      });
      // A newer host migrated further: this one is the one behind.
      await database.transaction((sql) =>
        sql.query(
          `INSERT INTO ${quoteSchema(schema)}.schema_migrations (version, name, checksum) VALUES ($1, 'future', 'sha256:0')`,
          [SCHEMA_VERSION + 1],
        ),
      );
      expect(await engine.readiness()).toMatchObject({
        ready: false,
        checks: { migrations: { status: 'ahead', schema_version: SCHEMA_VERSION + 1 } },
      });
    } finally {
      await database.close();
      await dropSchema(schema);
    }
  });

  it('reports a schema never migrated as version 0', async () => {
    const schema = freshSchema();
    const database = createPgDatabase({ connectionString: TEST_DATABASE_URL, maxConnections: 1 });
    try {
      const store = createSqlStore(database, quoteSchema(schema));
      expect(await store.health?.()).toEqual({
        schemaVersion: 0,
        expectedVersion: SCHEMA_VERSION,
      });
    } finally {
      await database.close();
    }
  });
});
