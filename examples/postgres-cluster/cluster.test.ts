// Two real host processes (host.ts from source, as cluster.ts starts them) on one fresh
// schema of the test server: they migrate it together, then behave as one service.
// The server: PROGRAMRUN_TEST_DATABASE_URL when set, else the private PostgreSQL that
// vitest.config.ts's globalSetup starts for this test run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@programrun/engine';
import { generateEd25519Jwk } from '@programrun/evidence';
import { createPgDatabase } from '@programrun/store-postgres';
import { testDatabaseUrl } from '@programrun/test-postgres';

const DATABASE_URL = testDatabaseUrl();

const directory = fileURLToPath(new URL('.', import.meta.url));

interface Host {
  readonly child: ChildProcess;
  readonly url: string;
  output: string;
}

/** This process's environment without DATABASE_URL: each host gets only what a test gives it. */
const baseEnvironment = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'),
);

function spawnHost(environment: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'host.ts'],
    {
      cwd: directory,
      env: { ...baseEnvironment, PORT: '0', ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Starts host.ts and resolves when it prints its ready line (45 s at most). */
function startHost(environment: Record<string, string>): Promise<Host> {
  const child = spawnHost(environment);
  let output = '';
  return new Promise<Host>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`host did not start within 45 s:\n${output}`));
    }, 45_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = / ready on (http:\/\/127\.0\.0\.1:\d+) /.exec(output);
      if (match) {
        clearTimeout(timer);
        const host: Host = { child, url: match[1]!, output };
        child.stdout!.on('data', (more: Buffer) => (host.output += more.toString()));
        resolve(host);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${String(code)} before it was ready:\n${output}`));
    });
  });
}

/** Resolves when the process has exited, sending SIGKILL after `graceMs`. */
function stopped(child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

describe('host configuration', () => {
  it('refuses to start without DATABASE_URL, with one line on stderr and exit code 1', async () => {
    const child = spawnHost({});
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringContaining('programrun host: DATABASE_URL is not set'),
    ]);
  });
});

describe('two hosts on one PostgreSQL database', () => {
  const schema = `t_cluster_${randomBytes(5).toString('hex')}`;
  const key = generateApiKey('test');
  const database = createPgDatabase({ connectionString: DATABASE_URL, maxConnections: 1 });
  let a: Host;
  let b: Host;
  let body = '';

  beforeAll(async () => {
    const shared = {
      DATABASE_URL,
      PROGRAMRUN_POSTGRES_SCHEMA: schema,
      PROGRAMRUN_POSTGRES_POOL_SIZE: '4',
      PROGRAMRUN_TEST_KEY: key,
      PROGRAMRUN_EVIDENCE_KEY: JSON.stringify(generateEd25519Jwk()),
    };
    // Both start at once: one migrates the empty schema while the other waits for it.
    [a, b] = await Promise.all([
      startHost({ ...shared, PROGRAMRUN_HOST_NAME: 'A' }),
      startHost({ ...shared, PROGRAMRUN_HOST_NAME: 'B' }),
    ]);
    const scenario = (await (await api(a, '/v1/scenarios/wallet-delivery@v1')).json()) as {
      example_inputs: unknown;
    };
    body = JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: scenario.example_inputs });
  });

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((host) => stopped(host.child, 'SIGTERM')));
    await database.session((sql) => sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    await database.close();
  });

  const api = (host: Host, path: string, init: RequestInit = {}) =>
    fetch(`${host.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });

  /** POSTs a run creation, retrying while the key is in use on another host (409). */
  async function create(host: Host, idempotencyKey: string): Promise<Response> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const response = await api(host, '/v1/program-runs', {
        method: 'POST',
        body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      if (response.status !== 409) return response;
      const problem = (await response.json()) as { code: string };
      expect(problem.code).toBe('idempotency_key_in_use');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Idempotency-Key ${idempotencyKey} stayed in use`);
  }

  interface RunBody {
    id: string;
    status: string;
    awaiting: { step: string } | null;
  }

  it('migrated the schema once, though both hosts started at once', async () => {
    const { rows } = await database.session((sql) =>
      sql.query<{ version: number }>(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      ),
    );
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3]);
  });

  it('reads on host B the run host A created, with the same lifecycle records', async () => {
    const created = await create(a, randomUUID());
    expect(created.status).toBe(201);
    const run = (await created.json()) as RunBody;
    const read = await api(b, `/v1/program-runs/${run.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as RunBody).id).toBe(run.id);
    const [eventsA, eventsB] = await Promise.all(
      [a, b].map(async (host) => (await api(host, `/v1/program-runs/${run.id}/events`)).json()),
    );
    expect(eventsB).toEqual(eventsA);
  });

  it('creates one run per Idempotency-Key when both hosts receive it at once', async () => {
    const keys = Array.from({ length: 8 }, () => randomUUID());
    const answers = await Promise.all(
      keys.map(async (idempotencyKey) => {
        const [fromA, fromB] = await Promise.all([
          create(a, idempotencyKey),
          create(b, idempotencyKey),
        ]);
        expect([fromA.status, fromB.status]).toEqual([201, 201]);
        return {
          idempotencyKey,
          ids: [((await fromA.json()) as RunBody).id, ((await fromB.json()) as RunBody).id],
        };
      }),
    );
    for (const { idempotencyKey, ids } of answers) {
      expect(ids[0]).toBe(ids[1]);
      const { rows } = await database.session((sql) =>
        sql.query<{ runs: number }>(
          `SELECT count(*)::int AS runs FROM "${schema}".runs WHERE idempotency_key = $1`,
          [idempotencyKey],
        ),
      );
      expect(rows[0]!.runs).toBe(1);
    }
  });

  it('keeps advancing a run on host B after host A is killed with SIGKILL', async () => {
    const created = await create(a, randomUUID());
    const run = (await created.json()) as RunBody;
    expect(run.awaiting?.step).toBe('screen_destination');
    await stopped(a.child, 'SIGKILL');
    // The simulated screening answer is a timer due two seconds after creation.
    let current = run;
    for (let poll = 0; poll < 80 && current.awaiting?.step === 'screen_destination'; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = (await (await api(b, `/v1/program-runs/${run.id}`)).json()) as RunBody;
    }
    expect(current.awaiting?.step).toBe('release_approval');
  });
});
