// The embedded PostgreSQL store: a server of the host's own in its data directory, durable
// settings, private files, a socket in the directory (or 127.0.0.1 when the path is too
// long), and a restart right after the host was killed with SIGKILL (its server outlives
// it: the next start stops it and starts its own).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateApiKey, isStoreError } from '@programrun/engine';
import {
  createEmbeddedPostgresStore,
  createPGliteStore,
  embeddedPostgresUnavailable,
  lockDataDir,
  openStoreFromEnvironment,
  startEmbeddedPostgres,
  StoreSelectionError,
} from '../src/index.js';
import { isProcessRunning } from '../src/processes/process-liveness.js';
import { apiClient } from './support/api-client.js';
import { stopLeftoverServer } from './support/embedded-leftovers.js';
import { killAllHosts, startHost } from './support/host-process.js';

const directories: string[] = [];

async function freshDirectory(name = 'programrun-embedded-'): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), name));
  directories.push(directory);
  return directory;
}

afterEach(async () => {
  await killAllHosts();
  for (const directory of directories.splice(0)) {
    await stopLeftoverServer(directory).catch(() => undefined);
    await rm(directory, { recursive: true, force: true });
  }
});
afterAll(() => killAllHosts());

const mode = async (path: string) => (await stat(path)).mode & 0o777;
const WALLET_DELIVERY = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  },
};
/** The uid a process runs as (Linux). */
const uidOf = async (pid: number) =>
  Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);
const clock = { account: 'acct_e', offset_ms: 60_000, updated_at: '2026-01-01T00:00:00.000Z' };

/** The server's settings, read over its own connection. */
async function settings(
  connection: pg.ClientConfig,
  names: readonly string[],
): Promise<Record<string, string>> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const rows = await Promise.all(
      names.map(async (name) => {
        const result = await client.query<{ value: string }>(
          'SELECT current_setting($1) AS value',
          [name],
        );
        return [name, result.rows[0]!.value] as const;
      }),
    );
    return Object.fromEntries(rows);
  } finally {
    await client.end();
  }
}

describe('createEmbeddedPostgresStore', () => {
  it('runs a durable server on a socket in a private data directory and keeps rows', async () => {
    // Made by the store itself.
    const dataDir = await freshDirectory();
    await rm(dataDir, { recursive: true });
    const store = await createEmbeddedPostgresStore({ dataDir });
    await store.transaction((tx) => tx.putTestClock(clock));
    await store.close();

    // Created private: 0700, or 0710 for the postgres group when the host runs as root
    // (its server runs as postgres and must reach its own subdirectory).
    const root = userInfo().uid === 0;
    expect(await mode(dataDir)).toBe(root ? 0o710 : 0o700);
    expect(await mode(join(dataDir, 'postgres'))).toBe(0o700);
    expect(await mode(join(dataDir, 'postgres-password'))).toBe(0o600);
    expect(await mode(join(dataDir, 'postgres.log'))).toBe(0o600);
    // Closed: the lock is released and the server stopped.
    await expect(stat(join(dataDir, 'programrun.lock'))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow(/ENOENT/);

    const lock = await lockDataDir(dataDir);
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      expect(server.connection.host).toBe(join(dataDir, 'postgres'));
      expect(
        await settings(server.connection, [
          'fsync',
          'synchronous_commit',
          'full_page_writes',
          'data_checksums',
          'listen_addresses',
          'unix_socket_directories',
          'password_encryption',
        ]),
      ).toEqual({
        fsync: 'on',
        synchronous_commit: 'on',
        full_page_writes: 'on',
        data_checksums: 'on',
        listen_addresses: '',
        unix_socket_directories: join(dataDir, 'postgres'),
        password_encryption: 'scram-sha-256',
      });
      // The kept password is the one the server asks for.
      const password = (await readFile(join(dataDir, 'postgres-password'), 'utf8')).trim();
      expect(server.connection.password).toBe(password);
      const intruder = new pg.Client({ ...server.connection, password: 'wrong' });
      await expect(intruder.connect()).rejects.toThrow(/password authentication failed/);
    } finally {
      await server.stop();
      await lock.release();
    }

    const reopened = await createEmbeddedPostgresStore({ dataDir });
    try {
      expect(await reopened.transaction((tx) => tx.getTestClock('acct_e'))).toEqual(clock);
    } finally {
      await reopened.close();
    }
  });

  it('listens on 127.0.0.1 only, on a free port, when the socket path would be too long', async () => {
    const parent = await freshDirectory();
    // As root the server runs as postgres, who must be able to pass through the parent.
    await chmod(parent, 0o711);
    const dataDir = join(parent, 'd'.repeat(90));
    await mkdir(dataDir, { mode: 0o700 });
    const lock = await lockDataDir(dataDir);
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      expect(server.connection.host).toBe('127.0.0.1');
      expect(server.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
      expect(
        await settings({ connectionString: server.url }, [
          'listen_addresses',
          'unix_socket_directories',
          'fsync',
        ]),
      ).toEqual({ listen_addresses: '127.0.0.1', unix_socket_directories: '', fsync: 'on' });
    } finally {
      await server.stop();
      await lock.release();
    }
  });

  it('refuses a data directory other users can read, with the chmod that fixes it', async () => {
    const dataDir = await freshDirectory();
    await chmod(dataDir, 0o755);
    for (const open of [
      () => createEmbeddedPostgresStore({ dataDir }),
      () => createPGliteStore({ dataDir }),
    ]) {
      const refusal = await open().catch((error: unknown) => error);
      expect(isStoreError(refusal, 'store_unavailable')).toBe(true);
      expect((refusal as Error).message).toBe(
        `data directory ${dataDir} is open to other users (mode 0755); it holds the database and the server's keys: run chmod 700 ${dataDir}`,
      );
    }
    // Nothing was written into it.
    await expect(stat(join(dataDir, 'programrun.lock'))).rejects.toThrow(/ENOENT/);
  });
});

describe.runIf(userInfo().uid === 0)('createEmbeddedPostgresStore as root', () => {
  it('refuses a data directory the postgres user cannot reach, saying where and what to do', async () => {
    const parent = await freshDirectory();
    const dataDir = join(parent, 'data');
    const refusal = await createEmbeddedPostgresStore({ dataDir }).catch((error: unknown) => error);
    expect(isStoreError(refusal, 'store_unavailable')).toBe(true);
    const reason = `embedded PostgreSQL runs as user postgres (PostgreSQL does not run as root), who cannot enter ${parent}: set PROGRAMRUN_DATA_DIR to a directory outside it, or run as a user other than root`;
    expect((refusal as Error).message).toBe(reason);
    // What a host that picks its own store is told, before anything is started.
    expect(await embeddedPostgresUnavailable(dataDir)).toBe(reason);
    // The lock was released: the directory can be opened once the parent lets postgres in.
    await chmod(parent, 0o711);
    await (await createEmbeddedPostgresStore({ dataDir })).close();
  });
});

describe('openStoreFromEnvironment with PROGRAMRUN_STORE=embedded', () => {
  it('opens the embedded server in PROGRAMRUN_DATA_DIR, and refuses a PGlite directory', async () => {
    const dataDir = await freshDirectory();
    const opened = await openStoreFromEnvironment({
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: dataDir,
    });
    expect([opened.kind, opened.durable, opened.location]).toEqual(['embedded', true, dataDir]);
    await opened.close();
    expect(await embeddedPostgresUnavailable(dataDir)).toBeNull();
    // A directory not made yet can take it too.
    expect(await embeddedPostgresUnavailable(join(dataDir, 'later', 'data'))).toBeNull();

    const pgliteDir = await freshDirectory();
    await (await createPGliteStore({ dataDir: pgliteDir })).close();
    const refusal = await openStoreFromEnvironment({
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: pgliteDir,
    }).catch((error: unknown) => error);
    expect(await embeddedPostgresUnavailable(pgliteDir)).toBe(
      `${pgliteDir} holds a PGlite store (pglite/)`,
    );
    expect(refusal).toBeInstanceOf(StoreSelectionError);
    expect((refusal as Error).message).toBe(
      `${pgliteDir} holds a PGlite store (pglite/), not embedded PostgreSQL: set PROGRAMRUN_STORE=pglite to keep using it, or PROGRAMRUN_DATA_DIR to another directory`,
    );
  });
});

describe('a host on embedded PostgreSQL killed with SIGKILL', () => {
  it('starts again at once: the server it left running is stopped, and every run is kept', async () => {
    const dataDir = await freshDirectory();
    const key = generateApiKey('test');
    const environment = {
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: dataDir,
      PROGRAMRUN_TEST_KEY: key,
    };
    const first = await startHost(environment);
    const created = await apiClient(first.baseUrl, key).call<{ id: string }>(
      'POST',
      '/v1/program-runs',
      { body: WALLET_DELIVERY, idempotencyKey: 'kill-restart' },
    );
    expect(created.status).toBe(201);
    const leftover = Number.parseInt(
      await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8'),
      10,
    );
    await first.crash();
    // The host is gone; its server is not.
    expect(isProcessRunning(first.pid)).toBe(false);
    expect(isProcessRunning(leftover)).toBe(true);

    const restartedAt = Date.now();
    const second = await startHost(environment);
    const restartMs = Date.now() - restartedAt;
    expect(isProcessRunning(leftover)).toBe(false);
    const read = await apiClient(second.baseUrl, key).call<{ id: string }>(
      'GET',
      `/v1/program-runs/${created.body.id}`,
    );
    expect(read.status).toBe(200);
    await second.stop();
    // Stopped cleanly: the server went with it.
    await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow(/ENOENT/);
    console.info(`restart right after SIGKILL: ready in ${restartMs} ms`);
  });
});

const NOBODY = 65_534;
const canDropRoot =
  process.platform === 'linux' &&
  userInfo().uid === 0 &&
  spawnSync('setpriv', ['--version']).status === 0;

describe.runIf(canDropRoot)('a host that is not root', () => {
  it('runs its server as itself in a 0700 directory it made, and restarts after a SIGKILL', async () => {
    // Made by the host, as the user `nobody` (setpriv drops root before node starts).
    const dataDir = join(tmpdir(), `programrun-nonroot-${randomBytes(4).toString('hex')}`);
    directories.push(dataDir);
    const key = generateApiKey('test');
    const environment = {
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: dataDir,
      PROGRAMRUN_TEST_KEY: key,
    };
    const asNobody = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
    const first = await startHost(environment, 60_000, asNobody);
    const created = await apiClient(first.baseUrl, key).call<{ id: string }>(
      'POST',
      '/v1/program-runs',
      { body: WALLET_DELIVERY, idempotencyKey: 'nonroot' },
    );
    expect(created.status).toBe(201);
    const server = Number.parseInt(
      await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8'),
      10,
    );
    expect([await uidOf(first.pid), await uidOf(server)]).toEqual([NOBODY, NOBODY]);
    const info = await stat(dataDir);
    expect([info.uid, info.mode & 0o777]).toEqual([NOBODY, 0o700]);

    await first.crash();
    const second = await startHost(environment, 60_000, asNobody);
    expect(isProcessRunning(server)).toBe(false);
    const read = await apiClient(second.baseUrl, key).call(
      'GET',
      `/v1/program-runs/${created.body.id}`,
    );
    expect(read.status).toBe(200);
    await second.stop();
    await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow(/ENOENT/);
  });
});
