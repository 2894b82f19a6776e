import { access } from 'node:fs/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startPrivatePostgres } from './private-postgres.js';

describe('startPrivatePostgres', () => {
  it('serves a durable database on 127.0.0.1 only, then removes it', async () => {
    const postgres = await startPrivatePostgres({ database: 'probe' });
    try {
      expect(postgres.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/probe$/);
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        const setting = async (name: string) =>
          (await client.query<{ setting: string }>(`SELECT current_setting($1) AS setting`, [name]))
            .rows[0]!.setting;
        expect(await setting('fsync')).toBe('on');
        expect(await setting('synchronous_commit')).toBe('on');
        expect(await setting('listen_addresses')).toBe('127.0.0.1');
        expect(await setting('unix_socket_directories')).toBe('');
        await client.query('CREATE TABLE t (n int)');
        await client.query('INSERT INTO t VALUES (1)');
        expect((await client.query('SELECT count(*)::int AS n FROM t')).rows[0]).toEqual({ n: 1 });
      } finally {
        await client.end();
      }
      // A wrong password is refused.
      const intruder = new pg.Client({
        connectionString: postgres.url.replace(/:[^:@/]+@/, ':wrong@'),
      });
      await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);
    } finally {
      await postgres.stop();
    }
    await expect(access(postgres.dataDir)).rejects.toThrow();
  });

  it('runs two servers side by side on different ports', async () => {
    const [one, two] = await Promise.all([startPrivatePostgres(), startPrivatePostgres()]);
    try {
      expect(one.port).not.toBe(two.port);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
