import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';
import { killServers, serve } from './serve-process.js';

const directories: string[] = [];

afterAll(async () => {
  killServers();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe('programrun serve', () => {
  it('serves the catalogue with the printed key on loopback and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'programrun-serve-'));
    directories.push(dataDir);
    const server = serve(['--port', '0'], { PROGRAMRUN_DATA_DIR: dataDir });
    const { base, key } = await server.started;
    expect(server.output().stdout).toContain(`Data: embedded PostgreSQL at ${dataDir}`);

    const listed = await fetch(`${base}/v1/scenarios`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(listed.status).toBe(200);
    const catalogue = (await listed.json()) as { data: { id: string }[] };
    expect(catalogue.data.map((scenario) => scenario.id)).toContain('wallet-delivery@v1');
    const anonymous = await fetch(`${base}/v1/scenarios`);
    expect(anonymous.status).toBe(401);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output().stdout).toMatch(/SIGTERM: shutting down\nStopped\.\n$/);
    expect(server.output().stderr).toBe('');
    // Its embedded PostgreSQL server stopped with it (no server left holding the directory).
    await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow(/ENOENT/);
  });

  it('serves the scenarios of --scenarios on the memory store', async () => {
    const server = serve(['--port', '0', '--scenarios', 'packages/cli/test/fixtures/serve'], {
      PROGRAMRUN_STORE: 'memory',
    });
    const { base, key } = await server.started;
    const listed = await fetch(`${base}/v1/scenarios`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const catalogue = (await listed.json()) as { data: { id: string }[] };
    expect(catalogue.data.map((scenario) => scenario.id)).toEqual(['lone-payout@v1']);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('refuses what cannot work with one line', async () => {
    const badPort = await programrun(['serve', '--port', '70000']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toBe(
      'programrun serve: --port must be a whole number from 0 to 65535, not "70000"\n',
    );
    const broken = await programrun(
      ['serve', '--port', '0', '--scenarios', 'packages/cli/test/fixtures'],
      {
        env: { PROGRAMRUN_STORE: 'memory' },
      },
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^programrun serve: packages\/cli\/test\/fixtures has \d+ scenario problem\(s\)[^\n]+\n$/,
    );
    const store = await programrun(['serve', '--port', '0'], {
      env: { PROGRAMRUN_STORE: 'redis' },
    });
    expect(store).toMatchObject({
      code: 2,
      stderr:
        'programrun serve: PROGRAMRUN_STORE must be one of memory, embedded, pglite, postgres, not "redis"\n',
    });
  });
});
