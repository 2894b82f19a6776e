// The embedded default on disk: what a host wrote is there after it reopens the directory,
// and a second process never opens a directory in use.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isStoreError } from '@programrun/engine';
import { createPGliteStore, openStoreFromEnvironment, StoreSelectionError } from '../src/index.js';

describe('PGlite data directory', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('keeps committed rows across close and reopen', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'programrun-pglite-'));
    const first = await createPGliteStore({ dataDir });
    await first.transaction((tx) =>
      tx.putTestClock({
        account: 'acct_p',
        offset_ms: 3_600_000,
        updated_at: '2026-01-01T00:00:00.000Z',
      }),
    );
    await first.close();
    const second = await createPGliteStore({ dataDir });
    try {
      expect(await second.transaction((tx) => tx.getTestClock('acct_p'))).toEqual({
        account: 'acct_p',
        offset_ms: 3_600_000,
        updated_at: '2026-01-01T00:00:00.000Z',
      });
    } finally {
      await second.close();
    }
  });

  it('refuses a directory another live process holds, and takes over a dead holder', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'programrun-pglite-'));
    const store = await createPGliteStore({ dataDir });
    const second = await createPGliteStore({ dataDir: dataDir }).catch((error: unknown) => error);
    await store.close();
    // Open in this process: a second open here is refused (one store per directory).
    expect(isStoreError(second, 'store_unavailable')).toBe(true);
    expect((second as Error).message).toMatch(/already open in this process/);
    // Held by another live process: refused with its pid.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(join(dataDir, 'programrun.lock'), `${holder.pid}\n`);
      const busy = await createPGliteStore({ dataDir }).catch((error: unknown) => error);
      expect((busy as Error).message).toMatch(
        new RegExp(`is in use by process ${holder.pid}; stop it or set PROGRAMRUN_DATA_DIR`),
      );
    } finally {
      holder.kill('SIGKILL');
    }
    // A lock left by a process that no longer exists (killed) is taken over.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    await writeFile(join(dataDir, 'programrun.lock'), `${dead.stdout.trim()}\n`);
    const reopened = await createPGliteStore({ dataDir });
    await reopened.close();
  });
});

describe('openStoreFromEnvironment', () => {
  it('opens memory by default and PGlite in PROGRAMRUN_DATA_DIR', async () => {
    const memory = await openStoreFromEnvironment({});
    expect([memory.kind, memory.durable, memory.location]).toEqual(['memory', false, null]);
    await memory.close();
    const dir = await mkdtemp(join(tmpdir(), 'programrun-env-'));
    try {
      const pglite = await openStoreFromEnvironment({
        PROGRAMRUN_STORE: 'pglite',
        PROGRAMRUN_DATA_DIR: dir,
      });
      expect([pglite.kind, pglite.durable, pglite.location]).toEqual(['pglite', true, dir]);
      await pglite.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('explains settings that cannot work in one line', async () => {
    const reasons = await Promise.all(
      [
        { PROGRAMRUN_STORE: 'mysql' },
        { PROGRAMRUN_STORE: 'postgres' },
        {
          PROGRAMRUN_STORE: 'postgres',
          DATABASE_URL: 'postgres://x',
          PROGRAMRUN_POSTGRES_POOL_SIZE: '0',
        },
      ].map((environment) =>
        openStoreFromEnvironment(environment).then(
          () => 'opened',
          (error: unknown) => error,
        ),
      ),
    );
    expect(reasons.every((reason) => reason instanceof StoreSelectionError)).toBe(true);
    expect(reasons.map((reason) => (reason as Error).message)).toEqual([
      'PROGRAMRUN_STORE must be one of memory, embedded, pglite, postgres, not "mysql"',
      'PROGRAMRUN_STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)',
      'PROGRAMRUN_POSTGRES_POOL_SIZE must be a whole number from 1 to 1000, not "0"',
    ]);
  });

  it('reports an unreachable PostgreSQL as store_unavailable, with the password never printed', async () => {
    const failure = await openStoreFromEnvironment({
      PROGRAMRUN_STORE: 'postgres',
      DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:1/programrun',
    }).catch((error: unknown) => error);
    expect(isStoreError(failure, 'store_unavailable')).toBe(true);
    expect((failure as Error).message).not.toContain('s3cret');
  });
});
