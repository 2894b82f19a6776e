// @programrun/store-postgres on PGlite (a temporary data directory) and on PostgreSQL (a
// pool of POOL connections, fresh schemas dropped at the end):
// 1. POST /v1/program-runs req/s through a host process (node:http adapter, Bearer key,
//    Idempotency-Key) against the raw store transaction of a create's shape (the same rows,
//    captured from one real create) driven at the same concurrency in its own process over
//    its own store of the same kind; rounds alternate, medians and HTTP/raw ratios of one run.
// 2. Creation latency (p50/p99, one create in flight) on stores seeded with few and with
//    many runs (copies of a real create through generate_series), served side by side.
// 3. Peak RSS of the host process during the HTTP rounds.
// 4. Where a create's time goes: statements, round trips and time per transaction.
// Needs PostgreSQL: DATABASE_URL, default postgres://postgres:programrun@127.0.0.1:5432/programrun_test.
// Usage: pnpm --filter @programrun/bench bench:store
//   [STORES=pglite,postgres ROUNDS=5 SECONDS=3 CONNECTIONS=16 POOL=8 GROWTH=1000,100000
//    GROWTH_PGLITE=1000,10000 GROWTH_ROUNDS=3 GROWTH_CREATES=500 PROFILE_CREATES=200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPGliteDatabase,
  createPgDatabase,
  redactDatabaseUrl,
} from '@programrun/store-postgres';
import { loadCompiled } from './scenario.js';
import { openBenchDatabase, type BenchDatabase } from './store/bench-database.js';
import { captureCreate, createBody } from './store/create-template.js';
import { growthLatency, type GrowthLatency } from './store/growth.js';
import { printReport, type StoreReport } from './store/report.js';
import { profileCreates } from './store/profile.js';
import { seedStore, type StoreKind } from './store/seed-store.js';
import { compareThroughput } from './store/throughput.js';

const DEFAULT_URL = 'postgres://postgres:programrun@127.0.0.1:5432/programrun_test';
const url = process.env.DATABASE_URL || DEFAULT_URL;
const kinds = (process.env.STORES ?? 'pglite,postgres').split(',') as StoreKind[];
const options = {
  rounds: Number(process.env.ROUNDS ?? 5),
  seconds: Number(process.env.SECONDS ?? 3),
  connections: Number(process.env.CONNECTIONS ?? 16),
  pool: Number(process.env.POOL ?? 8),
};
const growthSizes = (kind: StoreKind): number[] =>
  (kind === 'pglite'
    ? (process.env.GROWTH_PGLITE ?? '1000,10000')
    : (process.env.GROWTH ?? '1000,100000')
  )
    .split(',')
    .map(Number);
const growthOptions = {
  rounds: Number(process.env.GROWTH_ROUNDS ?? 3),
  creates: Number(process.env.GROWTH_CREATES ?? 500),
  warmup: 100,
};
const profileCount = Number(process.env.PROFILE_CREATES ?? 200);

let database: BenchDatabase;
try {
  database = await openBenchDatabase(url);
} catch (error) {
  console.error(`bench:store: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const started = performance.now();
const progress = (message: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);
const root = mkdtempSync(join(tmpdir(), 'programrun-bench-store-'));
const compiled = await loadCompiled('wallet-delivery@v1');
const captured = await captureCreate(compiled);
const body = createBody(compiled);

/** Where a child process finds its own store of `kind`. */
const place = (kind: StoreKind, purpose: string): Record<string, string> =>
  kind === 'pglite'
    ? { STORE: 'pglite', DATA_DIR: join(root, purpose) }
    : {
        STORE: 'postgres',
        DATABASE_URL: url,
        SCHEMA: database.schema(purpose),
        POOL: String(options.pool),
      };

const reports: StoreReport[] = [];
try {
  for (const kind of kinds) {
    progress(`${kind}: profile of ${profileCount} sequential creates in process`);
    const profile = await profileCreates(
      kind === 'pglite'
        ? await createPGliteDatabase({ dataDir: join(root, 'profile') })
        : createPgDatabase({ connectionString: url, maxConnections: options.pool }),
      kind === 'pglite' ? 'programrun' : database.schema('profile'),
      compiled,
      captured,
      profileCount,
    );

    progress(
      `${kind}: HTTP vs raw, ${options.rounds} rounds of ${options.seconds} s, ${options.connections} connections`,
    );
    const throughput = await compareThroughput(place(kind, 'http'), place(kind, 'raw'), {
      ...options,
      body,
    });

    const seeded = [];
    for (const runs of growthSizes(kind)) {
      progress(`${kind}: seeding ${runs.toLocaleString('en-US')} runs`);
      seeded.push(await seedStore(place(kind, `g${runs}`), runs, captured));
    }
    progress(
      `${kind}: creation latency, ${growthOptions.rounds} rounds of ${growthOptions.creates} creates per store`,
    );
    const growth: GrowthLatency[] = await growthLatency(seeded, body, growthOptions);
    reports.push({ kind, profile, throughput, seeded, growth });
  }
} finally {
  await database.dropSchemas();
  rmSync(root, { recursive: true, force: true });
}

progress('done');
printReport(reports, {
  ...options,
  growth: growthOptions,
  profileCount,
  database: `${database.version} at ${redactDatabaseUrl(url)}`,
  captured,
});
