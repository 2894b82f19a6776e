import { startServer, type ServerProcess } from '../load.js';
import { stopChild } from './children.js';
import { percentile, sequentialCreates } from './latency.js';

/** One seeded store a host serves. */
export interface SeededStore {
  /** Runs already in the store. */
  readonly runs: number;
  /** Environment of src/servers/store-host.ts for this store. */
  readonly env: Record<string, string>;
}

/** Creation latency on one seeded store. */
export interface GrowthLatency {
  readonly runs: number;
  readonly p50: number;
  readonly p99: number;
  /** p50 of each round. */
  readonly roundP50s: readonly number[];
}

/**
 * Serves each seeded store from its own host process and measures the latency of creates
 * sent one after another (one in flight), `rounds` times `creates` per store after
 * `warmup` creates each; rounds alternate between the stores (A B, B A, …). Percentiles are over every
 * round's samples.
 *
 * @example
 * ```ts
 * const [small, large] = await growthLatency([small, large], body, { rounds: 3, creates: 500, warmup: 100 });
 * ```
 */
export async function growthLatency(
  stores: readonly SeededStore[],
  body: string,
  options: { readonly rounds: number; readonly creates: number; readonly warmup: number },
): Promise<GrowthLatency[]> {
  const hosts: ServerProcess[] = [];
  try {
    for (const store of stores) {
      const host = await startServer('store-host.ts', store.env);
      process.on('exit', () => host.child.kill('SIGKILL'));
      hosts.push(host);
    }
    for (const host of hosts) await sequentialCreates(host.port, body, options.warmup);
    const samples = hosts.map((): number[][] => []);
    for (let round = 0; round < options.rounds; round += 1) {
      // A B, then B A: a drift during the run weighs on every store alike.
      const order = [...hosts.keys()];
      if (round % 2 === 1) order.reverse();
      for (const index of order) {
        samples[index]!.push(await sequentialCreates(hosts[index]!.port, body, options.creates));
      }
    }
    return stores.map((store, index) => {
      const all = samples[index]!.flat();
      return {
        runs: store.runs,
        p50: percentile(all, 50),
        p99: percentile(all, 99),
        roundP50s: samples[index]!.map((round) => percentile(round, 50)),
      };
    });
  } finally {
    await Promise.all(hosts.map((host) => stopChild(host.child)));
  }
}
