// `programrun serve` on a private PostgreSQL, stopped with SIGTERM under load: concurrent
// creates (test and live) and approvals, live handoffs in flight to a partner that does not
// answer, webhook deliveries in flight to a receiver that does not answer. The process exits
// 0 within the shutdown timeout, every request answered 2xx has its effect in the database,
// and no timer, delivery or handoff job lease is left held (the tables, read directly: the
// `postgres` store does not free leftover leases when it reopens, as single-host stores do).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '@programrun/engine';
import { createPgDatabase, type SqlDatabase } from '@programrun/store-postgres';
import {
  startPrivatePostgres,
  type PrivatePostgres,
} from '../../../tools/test-postgres/src/index.js';
import { programrun } from './run-bin.js';
import { killServers, serve } from './serve-process.js';

/** How long the server may drain (requests, then calls and deliveries in flight). */
const SHUTDOWN_TIMEOUT_MS = 3_000;
/** How long the load runs before SIGTERM. */
const LOAD_MS = 4_000;

/** A server on 127.0.0.1 that reads each request and never answers (until closed). */
async function silentServer(): Promise<{
  url: string;
  requests: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer((request) => {
    requests += 1;
    request.resume();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

let postgres: PrivatePostgres;
let database: SqlDatabase;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  postgres = await startPrivatePostgres({ database: 'programrun_drain' });
  database = createPgDatabase({ connectionString: postgres.url, maxConnections: 2 });
}, 60_000);

afterAll(async () => {
  killServers();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await database?.close();
  await postgres?.stop();
});

const count = async (query: string, params: unknown[] = []): Promise<number> =>
  database.transaction(async (sql) => {
    const { rows } = await sql.query<{ n: string }>(query, params);
    return Number(rows[0]!.n);
  });

describe('programrun serve stopped with SIGTERM under load', () => {
  it('drains: exits 0 in time, loses no acknowledged request and leaves no lease held', async () => {
    const store = { PROGRAMRUN_STORE: 'postgres', DATABASE_URL: postgres.url };
    const created = await programrun(
      ['keys', 'create', '--account', 'acct_demo', '--env', 'live'],
      {
        env: store,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const liveKey = created.stdout.split('\n')[1]!;

    const partner = await silentServer();
    const receiver = await silentServer();
    cleanups.push(
      () => partner.close(),
      () => receiver.close(),
    );
    const directory = await mkdtemp(join(tmpdir(), 'programrun-drain-'));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const partnersFile = join(directory, 'partners.json');
    await writeFile(
      partnersFile,
      JSON.stringify({
        chain_analytics: {
          url: partner.url,
          secret: generateWebhookSecret(),
          concurrency: 4,
          allowLoopback: true,
        },
      }),
    );

    const server = serve(['--port', '0'], {
      ...store,
      PROGRAMRUN_PARTNERS: partnersFile,
      PROGRAMRUN_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      PROGRAMRUN_LOG_LEVEL: 'info',
    });
    const { base, key: testKey } = await server.started;
    expect(server.output().stdout).toContain(
      `drains work in flight for up to ${SHUTDOWN_TIMEOUT_MS} ms`,
    );
    const headers = (key: string) => ({
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
    });
    const endpoint = await fetch(`${base}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { ...headers(testKey), 'idempotency-key': 'drain-endpoint' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(endpoint.status).toBe(201);

    // The load: creates (one in four live) and approvals of test runs awaiting one.
    let exited = false;
    let sigtermAt = Infinity;
    const acknowledged: { id: string; at: number; live: boolean }[] = [];
    const approving = new Set<string>();
    const approved: string[] = [];
    let refused = 0;
    const request = async (path: string, key: string, body: unknown, idempotencyKey?: string) => {
      try {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            ...headers(key),
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { id?: string };
        return response.ok ? answer : null;
      } catch {
        refused += 1; // the server stopped accepting, or cut the connection
        return null;
      }
    };
    const creator = async (loop: number) => {
      for (let index = 0; !exited; index += 1) {
        const live = index % 4 === 3;
        const run = await request(
          '/v1/program-runs',
          live ? liveKey : testKey,
          { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
          `drain-${loop}-${index}`,
        );
        if (run?.id) acknowledged.push({ id: run.id, at: performance.now(), live });
        if (!run) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const approver = async () => {
      while (!exited) {
        // Test runs created over 2.5 s ago wait for their release approval (the simulated
        // partner answers after 2 s); each is approved once.
        const run = acknowledged.find(
          (candidate) =>
            !candidate.live &&
            candidate.at < performance.now() - 2_500 &&
            !approving.has(candidate.id),
        );
        if (!run) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        approving.add(run.id);
        const answer = await request(`/v1/program-runs/${run.id}/approvals`, testKey, {
          step: 'release_approval',
          decision: 'approve',
          approver: 'ops:drain',
        });
        if (answer) approved.push(run.id);
      }
    };
    const exit = server.exited.then((code) => {
      exited = true;
      return { code, at: performance.now() };
    });
    const load = Promise.all([
      ...Array.from({ length: 12 }, (_, loop) => creator(loop)),
      approver(),
      approver(),
    ]);

    // Leases are held at SIGTERM: partner calls and webhook deliveries in flight.
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    let held = { jobs: 0, deliveries: 0 };
    for (let wait = 0; wait < 100 && !(held.jobs > 0 && held.deliveries > 0); wait += 1) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      held = {
        jobs: await count(
          `SELECT count(*) AS n FROM programrun.handoff_jobs WHERE lease_owner IS NOT NULL`,
        ),
        deliveries: await count(
          `SELECT count(*) AS n FROM programrun.webhook_deliveries WHERE lease_until IS NOT NULL`,
        ),
      };
    }
    expect(held.jobs).toBeGreaterThan(0);
    expect(held.deliveries).toBeGreaterThan(0);
    expect(partner.requests()).toBeGreaterThan(0);
    expect(receiver.requests()).toBeGreaterThan(0);

    sigtermAt = performance.now();
    server.child.kill('SIGTERM');
    const { code, at } = await exit;
    await load;
    expect(code, server.output().stderr).toBe(0);
    // The drain's bound, plus start-up of nothing new and the store closing.
    expect(at - sigtermAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 4_000);
    expect(server.output().stdout).toMatch(/SIGTERM: shutting down\n(.*\n)*Stopped\.\n$/);
    const drained = server
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message: string; status?: number })
      .filter((line) => line.message === 'drained');
    expect(drained).toEqual([
      expect.objectContaining({ level: 'info', requests_cut_off: 0, shutdown_timeout_ms: 3000 }),
    ]);

    // Mid-load: requests were answered after SIGTERM, and new ones were refused.
    expect(acknowledged.filter((run) => run.at > sigtermAt).length).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(50);
    expect(approved.length).toBeGreaterThan(0);

    // Every acknowledged create is a run; every acknowledged approval is recorded.
    const ids = acknowledged.map((run) => run.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      await count(`SELECT count(*) AS n FROM programrun.runs WHERE id = ANY($1::text[])`, [ids]),
    ).toBe(ids.length);
    expect(
      await count(
        `SELECT count(DISTINCT run_id) AS n FROM programrun.lifecycle_records
         WHERE run_id = ANY($1::text[]) AND record->>'type' = 'program_run.approval.granted'`,
        [approved],
      ),
    ).toBe(approved.length);

    // No lease left held by the stopped host.
    expect(
      await count(`SELECT count(*) AS n FROM programrun.timers WHERE lease_until IS NOT NULL`),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM programrun.webhook_deliveries WHERE lease_until IS NOT NULL`,
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM programrun.handoff_jobs
         WHERE lease_owner IS NOT NULL OR lease_until IS NOT NULL`,
      ),
    ).toBe(0);
    // The calls in flight were given back, not recorded: their jobs wait for the next call.
    expect(
      await count(
        `SELECT count(*) AS n FROM programrun.handoff_jobs
         WHERE environment = 'live' AND status = 'queued' AND calls > 0`,
      ),
    ).toBeGreaterThan(0);
  }, 60_000);
});
