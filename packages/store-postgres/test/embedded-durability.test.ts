// Durability of the embedded PostgreSQL store, on power loss, shown two ways:
//
// 1. Under strace: a host (and its server: strace -f follows both) answers creates one at a
//    time; for each 201 the host writes, an fdatasync/fsync of a WAL file in the cluster's
//    pg_wal/ completed after the request was sent and before the answer was written. So
//    every acknowledged create was on stable storage before its acknowledgement (a flush
//    may cover several commits: group commit). The same creates on PGlite make no flush
//    at all: what its documentation says (it survives a process crash, not a power loss).
// 2. A power cut, as far as processes see it: the host and every process of its server are
//    killed with SIGKILL at the same instant, under load, right after acknowledgements;
//    nothing gets to finish, flush or shut down. The next start recovers from the WAL, and
//    every run a client got a 201 for is there, with its Idempotency-Key.
//
// (What the kernel had in its page cache but not on disk survives (2); (1) is what shows
// that no acknowledged write depended on it.)
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '@programrun/engine';
import { apiClient, type ApiClient } from './support/api-client.js';
import { serverTree, stopLeftoverServer } from './support/embedded-leftovers.js';
import { killAllHosts, startHost } from './support/host-process.js';

const strace = spawnSync('strace', ['-V']).status === 0;
const linux = process.platform === 'linux';
const key = generateApiKey('test');
const CREATE = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  },
};
const directories: string[] = [];

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'programrun-durable-'));
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

/** One traced system call: when it returned, what it was called with. */
interface TracedCall {
  readonly pid: number;
  readonly name: string;
  readonly args: string;
  /** Seconds since the epoch (strace -ttt) when the call returned. */
  readonly returnedAt: number;
}

/**
 * The calls of an `strace -f -ttt -T -y` log, with calls that another process interrupted
 * (`<unfinished ...>` … `<... name resumed>`) joined back together.
 */
function parseTrace(text: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const pending = new Map<string, { args: string }>();
  for (const line of text.split('\n')) {
    const match = /^(\d+)\s+(\d+\.\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    const at = Number(match[2]);
    const rest = match[3]!;
    const unfinished = /^(\w+)\((.*) <unfinished \.\.\.>$/.exec(rest);
    if (unfinished) {
      pending.set(`${pid} ${unfinished[1]}`, { args: unfinished[2]! });
      continue;
    }
    const resumed = /^<\.\.\. (\w+) resumed>(.*)$/.exec(rest);
    if (resumed) {
      const started = pending.get(`${pid} ${resumed[1]}`);
      pending.delete(`${pid} ${resumed[1]}`);
      calls.push({
        pid,
        name: resumed[1]!,
        args: `${started?.args ?? ''}${resumed[2]}`,
        returnedAt: at,
      });
      continue;
    }
    const complete = /^(\w+)\((.*)\) += .*<(\d+\.\d+)>$/.exec(rest);
    if (complete) {
      calls.push({
        pid,
        name: complete[1]!,
        args: complete[2]!,
        returnedAt: at + Number(complete[3]),
      });
    }
  }
  return calls;
}

const now = () => (performance.timeOrigin + performance.now()) / 1000;

/** `count` creates one at a time; each one's send time and whether it was acknowledged. */
async function sequentialCreates(client: ApiClient, count: number, prefix: string) {
  const sent: number[] = [];
  for (let index = 0; index < count; index += 1) {
    sent.push(now());
    const answer = await client.call('POST', '/v1/program-runs', {
      body: CREATE,
      idempotencyKey: `${prefix}-${index}`,
    });
    expect(answer.status).toBe(201);
  }
  return sent;
}

const SYNC_CALLS = 'fsync,fdatasync,sync_file_range,msync,sync,syncfs';

describe.skipIf(!strace)('acknowledged creates under strace', () => {
  it('embedded PostgreSQL flushes a WAL file after each create is sent and before its 201 is written', async () => {
    const dataDir = await freshDirectory();
    const trace = join(dataDir, 'strace.log');
    const host = await startHost(
      { PROGRAMRUN_STORE: 'embedded', PROGRAMRUN_DATA_DIR: dataDir, PROGRAMRUN_TEST_KEY: key },
      60_000,
      [
        'strace',
        '-f',
        '-ttt',
        '-T',
        '-y',
        '-s',
        '16',
        '-e',
        `trace=${SYNC_CALLS},write,writev`,
        '-o',
        trace,
      ],
    );
    const creates = 20;
    const sent = await sequentialCreates(apiClient(host.baseUrl, key), creates, 'traced');
    await host.stop(30_000);

    const calls = parseTrace(await readFile(trace, 'utf8'));
    const walDirectory = `${join(dataDir, 'postgres', 'pg_wal')}/`;
    const walFlushes = calls.filter(
      (call) =>
        (call.name === 'fdatasync' || call.name === 'fsync') && call.args.includes(walDirectory),
    );
    const answers = calls
      .filter(
        (call) =>
          call.pid === host.pid &&
          (call.name === 'write' || call.name === 'writev') &&
          call.args.includes('"HTTP/1.1 201'),
      )
      .map((call) => call.returnedAt)
      .sort((a, b) => a - b);
    expect(answers).toHaveLength(creates);
    const uncovered = answers.filter(
      (answeredAt, index) =>
        !walFlushes.some(
          (flush) =>
            flush.pid !== host.pid &&
            flush.returnedAt > sent[index]! &&
            flush.returnedAt < answeredAt,
        ),
    );
    expect(
      uncovered,
      `answers without a WAL flush before them:\n${walFlushes.length} flushes`,
    ).toEqual([]);
    console.info(
      `embedded: ${creates} acknowledged creates, ${walFlushes.length} WAL flushes in the trace, each answer after a flush`,
    );
  }, 120_000);

  it('PGlite makes no flush at all for the same creates (it survives a process crash, not a power loss)', async () => {
    const dataDir = await freshDirectory();
    const trace = join(dataDir, 'strace.log');
    const host = await startHost(
      { PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dataDir, PROGRAMRUN_TEST_KEY: key },
      120_000,
      ['strace', '-f', '-ttt', '-T', '-e', `trace=${SYNC_CALLS}`, '-o', trace],
    );
    const sent = await sequentialCreates(apiClient(host.baseUrl, key), 10, 'pglite');
    const done = now();
    await host.stop(30_000);
    const flushes = parseTrace(await readFile(trace, 'utf8')).filter(
      (call) => call.returnedAt >= sent[0]! && call.returnedAt <= done,
    );
    expect(flushes).toEqual([]);
  }, 180_000);
});

describe.runIf(linux)('a power cut right after acknowledgements', () => {
  it('loses no acknowledged create: host and server killed with SIGKILL at once, under load', async () => {
    const dataDir = await freshDirectory();
    const environment = {
      PROGRAMRUN_STORE: 'embedded',
      PROGRAMRUN_DATA_DIR: dataDir,
      PROGRAMRUN_TEST_KEY: key,
    };
    const host = await startHost(environment);
    const client = apiClient(host.baseUrl, key);
    const acknowledged = new Map<string, string>();
    let cut = false;
    let attempts = 0;
    const workers = Array.from({ length: 6 }, async (_, worker) => {
      for (let index = 0; !cut; index += 1) {
        const idempotencyKey = `cut-${worker}-${index}`;
        attempts += 1;
        const answer = await client.call<{ id: string }>('POST', '/v1/program-runs', {
          body: CREATE,
          idempotencyKey,
        });
        if (answer.status === 201) acknowledged.set(idempotencyKey, answer.body.id);
      }
    });
    // Cut the power once creates are being acknowledged, in the middle of the load.
    while (acknowledged.size < 60) await new Promise((resolve) => setTimeout(resolve, 5));
    const victims = [host.pid, ...(await serverTree(dataDir))];
    for (const pid of victims) process.kill(pid, 'SIGKILL');
    cut = true;
    const acknowledgedAtCut = new Map(acknowledged);
    await Promise.all(workers);
    // Answers that were on the wire when the processes died count too.
    expect(acknowledged.size).toBeGreaterThanOrEqual(acknowledgedAtCut.size);
    expect(victims.length).toBeGreaterThan(3);

    const restarted = await startHost(environment, 60_000);
    const after = apiClient(restarted.baseUrl, key);
    const missing: string[] = [];
    for (const [idempotencyKey, runId] of acknowledged) {
      const read = await after.call<{ id: string }>('GET', `/v1/program-runs/${runId}`);
      if (read.status !== 200) missing.push(`${idempotencyKey} → ${runId}: ${read.status}`);
    }
    expect(missing).toEqual([]);
    // The Idempotency-Key of an acknowledged create still answers with its run.
    const [firstKey, firstRun] = [...acknowledged][0]!;
    const replay = await after.call<{ id: string }>('POST', '/v1/program-runs', {
      body: CREATE,
      idempotencyKey: firstKey,
    });
    expect([replay.status, replay.body.id, replay.replayed]).toEqual([201, firstRun, true]);
    await restarted.stop(30_000);
    // The restart was a crash recovery from the WAL, not a clean start.
    const log = await readFile(join(dataDir, 'postgres.log'), 'utf8');
    expect(log).toMatch(/database system was interrupted|not properly shut down/);
    console.info(
      `power cut: ${victims.length} processes killed; ${acknowledged.size} of ${attempts} creates acknowledged, all present after recovery`,
    );
  }, 120_000);
});
