import { availableParallelism } from 'node:os';
import { format, median } from '../stats.js';
import type { CapturedCreate } from './create-template.js';
import type { GrowthLatency } from './growth.js';
import type { CreateProfile } from './profile.js';
import type { SeedResult, StoreKind } from './seed-store.js';
import type { ThroughputFigures } from './throughput.js';

/** Everything measured on one kind of store. */
export interface StoreReport {
  readonly kind: StoreKind;
  readonly profile: CreateProfile;
  readonly throughput: ThroughputFigures;
  readonly seeded: readonly SeedResult[];
  readonly growth: readonly GrowthLatency[];
}

/** How the benchmark ran, for the headings. */
export interface ReportContext {
  readonly rounds: number;
  readonly seconds: number;
  readonly connections: number;
  readonly pool: number;
  readonly growth: { readonly rounds: number; readonly creates: number; readonly warmup: number };
  readonly profileCount: number;
  readonly database: string;
  readonly captured: CapturedCreate;
}

const NAMES: Record<StoreKind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const percent = (value: number) => `${format(value, 1)} %`;
const ms = (value: number) => `${format(value, 2)} ms`;

/**
 * Prints the store benchmark's tables (markdown) and a one-line summary per store.
 *
 * @example
 * ```ts
 * printReport(reports, context);
 * ```
 */
export function printReport(reports: readonly StoreReport[], context: ReportContext): void {
  const { captured } = context;
  const body = captured.idempotency.response?.body;
  const response = typeof body === 'string' ? body.length : 0;
  console.log(`
Store benchmark: wallet-delivery@v1, POST /v1/program-runs (node:http adapter, Bearer key, Idempotency-Key; response ${format(response)} bytes)
${context.database} (pool ${context.pool}); PGlite in a temporary data directory; ${availableParallelism()} CPUs shared by host, database and load generator
Raw transaction of the same shape: ${captured.calls.map((call) => call.method).join(', ')} (${captured.records.length} records, ${captured.events.length} events, ${captured.timers.length} timers; ${format(JSON.stringify(captured.calls).length / 1024, 1)} KiB of arguments)

1. Create throughput, ${context.connections} connections (HTTP) / ${context.connections} concurrent transactions (raw), ${context.rounds} alternating rounds of ${context.seconds} s; medians
| store | HTTP creates/s | raw transactions/s | HTTP / raw | per round | HTTP p50 / p99 | non-2xx | target |
| --- | ---: | ---: | ---: | --- | --- | ---: | --- |`);
  for (const { kind, throughput: t } of reports) {
    console.log(
      `| ${NAMES[kind]} | ${format(t.httpRps)} | ${format(t.rawRps)} | ${percent((t.httpRps / t.rawRps) * 100)} | ${t.roundRatios.map((ratio) => format(ratio, 1)).join(' / ')} % | ${t.httpP50} / ${t.httpP99} ms | ${t.non2xx} | ≥ 50 % |`,
    );
  }

  console.log(`
2. Growth: creation latency over HTTP, one create in flight, ${context.growth.rounds} rounds × ${context.growth.creates} creates per store (after ${context.growth.warmup} warm-up), stores served side by side, rounds alternating
| store | runs before | seeded in | p50 | p99 | p50 per round | vs fewest: p50 / p99 | p50 vs fewest per round | target |
| --- | ---: | ---: | ---: | ---: | --- | --- | --- | --- |`);
  for (const { kind, seeded, growth } of reports) {
    const base = growth[0]!;
    growth.forEach((latency, index) => {
      const ratio =
        index === 0
          ? '1 (baseline)'
          : `${format(latency.p50 / base.p50, 2)}× / ${format(latency.p99 / base.p99, 2)}×`;
      const perRound = latency.roundP50s
        .map((value, round) => format(value / base.roundP50s[round]!, 2))
        .join(' / ');
      console.log(
        `| ${NAMES[kind]} | ${format(latency.runs)} | ${format(seeded[index]!.seconds, 1)} s | ${ms(latency.p50)} | ${ms(latency.p99)} | ${latency.roundP50s.map((value) => format(value, 2)).join(' / ')} ms | ${ratio} | ${perRound} | flat within noise |`,
      );
    });
  }

  console.log(`
3. Peak RSS (VmHWM) of each process: the host once ready (before load) and after its HTTP rounds
| store | host, ready | host, after HTTP rounds | raw driver, after its rounds |
| --- | ---: | ---: | ---: |`);
  for (const { kind, throughput: t } of reports) {
    console.log(
      `| ${NAMES[kind]} | ${t.hostStartRssMiB} MiB | ${t.hostRssMiB} MiB | ${t.rawRssMiB} MiB |`,
    );
  }

  console.log(`
4. Where a create goes: ${context.profileCount} creates per path one at a time in process (no sockets), paths in rotation, statements counted below the store
| store | path | transactions | statements | round trips (with BEGIN/COMMIT) | µs / create |
| --- | --- | ---: | ---: | ---: | ---: |`);
  for (const { kind, profile } of reports) {
    for (const cost of profile.paths) {
      console.log(
        `| ${NAMES[kind]} | ${cost.path} | ${format(cost.transactions, 1)} | ${format(cost.statements, 1)} | ${format(cost.roundTrips, 1)} | ${format(cost.microseconds)} |`,
      );
    }
  }
  for (const { kind, profile } of reports) {
    console.log(
      `${NAMES[kind]}, HTTP create per transaction (mean): ${profile.transactions
        .map((item) => `[${item.operations}] ${ms(item.milliseconds)}`)
        .join('; ')}`,
    );
  }

  console.log('\nSummary');
  for (const { kind, throughput: t, growth, profile } of reports) {
    const first = growth[0]!;
    const last = growth.at(-1)!;
    console.log(
      `${NAMES[kind]}: HTTP ${format(t.httpRps)} creates/s vs raw ${format(t.rawRps)}/s = ${percent((t.httpRps / t.rawRps) * 100)} (per-round median ${percent(median(t.roundRatios))}; target ≥ 50 %); latency ${format(first.runs)} → ${format(last.runs)} runs: p50 ${ms(first.p50)} → ${ms(last.p50)} (${format(last.p50 / first.p50, 2)}×), p99 ${ms(first.p99)} → ${ms(last.p99)} (${format(last.p99 / first.p99, 2)}×); host peak RSS ${t.hostRssMiB} MiB; ${format(profile.paths[0]!.roundTrips, 0)} vs ${format(profile.paths.at(-1)!.roundTrips, 0)} round trips per create`,
    );
  }
  const failures = reports.reduce((sum, report) => sum + report.throughput.non2xx, 0);
  if (failures > 0) console.log(`non-2xx answers: ${failures} (the figures above are not valid)`);
}
