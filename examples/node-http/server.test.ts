import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Boots server.ts as the README's first command does (from source, so no build is needed,
// embedded PostgreSQL in a data directory) and drives runs over real HTTP in real time:
// simulated partners answer after ~2 s. Then kills it with SIGKILL and starts it again.
interface Server {
  readonly child: ChildProcess;
  readonly base: string;
  readonly banner: string;
  readonly key: string;
}

let dataDir = '';
let server: Server;

function start(): Promise<Server> {
  const directory = fileURLToPath(new URL('.', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'server.ts'],
    {
      cwd: directory,
      env: { ...process.env, PORT: '0', PROGRAMRUN_DATA_DIR: dataDir, PROGRAMRUN_STORE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let banner = '';
  return new Promise<Server>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${banner}`)), 45_000);
    const collect = (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner);
      const key = /Test API key: (\S+)/.exec(banner);
      if (match && key && banner.includes('Catalogue:')) {
        clearTimeout(timer);
        resolve({ child, base: match[1]!, banner, key: key[1]! });
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => reject(new Error(`server exited with ${String(code)}:\n${banner}`)));
  });
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * Stops a server as an operator would (SIGTERM: it closes its store, which stops its
 * embedded PostgreSQL); if it hangs, SIGKILL, and its PostgreSQL server is stopped too.
 */
async function stop(child: ChildProcess, data: string): Promise<void> {
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await kill(child, 'SIGTERM');
  clearTimeout(force);
  await stopPostgresOf(data);
}

/** Stops the embedded PostgreSQL server a killed reference server left running in `data`. */
async function stopPostgresOf(data: string): Promise<void> {
  const lock = await readFile(join(data, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const postmaster = Number.parseInt(lock, 10);
  if (Number.isInteger(postmaster)) {
    try {
      process.kill(postmaster, 'SIGQUIT');
    } catch {
      // Stopped with the server.
    }
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'programrun-reference-'));
  server = await start();
}, 60_000);

afterAll(async () => {
  // Undefined when the server never started (the failure is reported by beforeAll).
  const started = server as Server | undefined;
  if (started) await stop(started.child, dataDir);
  await rm(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${server.key}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

interface Run {
  id: string;
  status: string;
  awaiting: { step: string } | null;
}

async function awaitStep(id: string, step: string): Promise<Run> {
  let current = (await (await api(`/v1/program-runs/${id}`)).json()) as Run;
  for (let attempt = 0; attempt < 60 && current.awaiting?.step !== step; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    current = (await (await api(`/v1/program-runs/${id}`)).json()) as Run;
  }
  return current;
}

describe('the reference server', () => {
  it('prints where it keeps data, the test key and a curl that creates a run', () => {
    expect(server.banner).toContain('(store: embedded, 7 scenarios)');
    expect(server.banner).toContain(`Data: embedded PostgreSQL at ${dataDir}`);
    expect(server.key).toMatch(/^pr_test_/);
    expect(server.banner).toContain(`curl -s ${server.base}/v1/program-runs`);
    expect(server.banner).toContain('"scenario_id":"wallet-delivery@v1"');
  });

  it('serves all seven scenarios', async () => {
    const list = (await (await api('/v1/scenarios')).json()) as { data: { id: string }[] };
    expect(list.data).toHaveLength(7);
  });

  it('runs the printed request, and simulated partners answer on their own', async () => {
    const body = /-d '(\{.*\})'/.exec(server.banner)![1]!;
    const created = await api('/v1/program-runs', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as Run;
    expect(run.awaiting?.step).toBe('screen_destination');
    expect((await awaitStep(run.id, 'release_approval')).awaiting?.step).toBe('release_approval');
  });

  it('refuses requests without the key', async () => {
    const response = await fetch(`${server.base}/v1/scenarios`);
    expect(response.status).toBe(401);
  });

  it('keeps runs, keys and pending timers when killed with SIGKILL and started again', async () => {
    const body = /-d '(\{.*\})'/.exec(server.banner)![1]!;
    const idempotencyKey = crypto.randomUUID();
    const created = await api('/v1/program-runs', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(created.status).toBe(201);
    const run = (await created.json()) as Run;
    // Killed while the simulated partner's answer is still a pending timer.
    await kill(server.child, 'SIGKILL');
    const key = server.key;
    server = await start();
    expect(server.key).toBe(key);
    const again = await api(`/v1/program-runs/${run.id}`);
    expect(again.status).toBe(200);
    // The Idempotency-Key still answers with the same run after the restart.
    const replay = await api('/v1/program-runs', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(((await replay.json()) as Run).id).toBe(run.id);
    // The timer that was pending when the host died fires after the restart.
    expect((await awaitStep(run.id, 'release_approval')).awaiting?.step).toBe('release_approval');
  });
});

describe('pnpm start, as the README runs it', () => {
  it('serves from source at once, and Ctrl-C prints one Stopped. line and exits 0', async () => {
    // The repository's pnpm: the one running these tests, as the README's command would.
    // (npm_execpath under `pnpm test`; else a pnpm on the PATH.)
    const running = process.env.npm_execpath;
    const [command, ...prefix] =
      running && /pnpm/.test(running) ? [process.execPath, running] : ['pnpm'];
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const data = await mkdtemp(join(tmpdir(), 'programrun-start-'));
    const started = Date.now();
    // Its own process group, like a terminal's foreground job, so Ctrl-C reaches all of it.
    const child = spawn(command, [...prefix, 'start'], {
      cwd: root,
      detached: true,
      env: { ...process.env, PORT: '0', PROGRAMRUN_DATA_DIR: data, PROGRAMRUN_STORE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      await vi.waitFor(
        () => {
          if (!/Stop with Ctrl-C/.test(output)) throw new Error(`not ready:\n${output}`);
        },
        { timeout: 45_000, interval: 100 },
      );
      const base = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
      const key = /Test API key: (\S+)/.exec(output)![1]!;
      const listed = await fetch(`${base}/v1/scenarios`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(listed.status).toBe(200);
      const servedAfterMs = Date.now() - started;
      // Ctrl-C: SIGINT to the whole group (pnpm forwards it too, so the server gets two).
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      // The embedded PostgreSQL server stopped with it.
      await expect(readFile(join(data, 'postgres', 'postmaster.pid'), 'utf8')).rejects.toThrow(
        /ENOENT/,
      );
      expect(output.match(/^Stopped\.$/gm)).toEqual(['Stopped.']);
      expect(output).not.toMatch(/ELIFECYCLE|Command failed|ERR_PNPM/);
      expect(output).not.toMatch(/Failed to create bin/);
      // Generous: this machine's two cores also run other suites now.
      expect(servedAfterMs).toBeLessThan(30_000);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await stopPostgresOf(data);
      await rm(data, { recursive: true, force: true });
    }
  }, 90_000);
});
