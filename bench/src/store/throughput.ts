import { loadCreate, peakRssMiB, startServer, type LoadResult } from '../load.js';
import { median } from '../stats.js';
import { startRawDriver, stopChild } from './children.js';
import type { DriveResult } from './drive.js';

/** How a throughput comparison runs. */
export interface ThroughputOptions {
  readonly rounds: number;
  readonly seconds: number;
  /** autocannon connections, and concurrent loops of the raw driver. */
  readonly connections: number;
  readonly body: string;
}

/** HTTP creates against raw create transactions on the same kind of store, same run. */
export interface ThroughputFigures {
  readonly httpRps: number;
  readonly rawRps: number;
  /** HTTP / raw of each round, in percent. */
  readonly roundRatios: readonly number[];
  readonly httpP50: number;
  readonly httpP99: number;
  /** Host's peak RSS once it was ready, before any load. */
  readonly hostStartRssMiB: number;
  readonly hostRssMiB: number;
  readonly rawRssMiB: number;
  readonly non2xx: number;
}

/**
 * Starts the HTTP host (src/servers/store-host.ts) and the raw driver
 * (src/servers/store-raw.ts), each in its own process over its own store of one kind,
 * warms both up, then alternates raw and HTTP rounds of `seconds` at `connections`.
 * Peak RSS is each process's high-water mark (VmHWM) when the rounds end.
 *
 * @example
 * ```ts
 * const figures = await compareThroughput(hostEnv, rawEnv, { rounds: 5, seconds: 3, connections: 16, body });
 * ```
 */
export async function compareThroughput(
  hostEnv: Record<string, string>,
  rawEnv: Record<string, string>,
  options: ThroughputOptions,
): Promise<ThroughputFigures> {
  const host = await startServer('store-host.ts', hostEnv);
  process.on('exit', () => host.child.kill('SIGKILL'));
  const hostStartRssMiB = await peakRssMiB(host.child);
  try {
    const raw = await startRawDriver(rawEnv);
    try {
      const load = () => loadCreate(host.port, options.body, options);
      await raw.run(options.seconds, options.connections); // warm-up
      await load();
      const raws: DriveResult[] = [];
      const https: LoadResult[] = [];
      for (let round = 0; round < options.rounds; round += 1) {
        raws.push(await raw.run(options.seconds, options.connections));
        https.push(await load());
      }
      return {
        httpRps: median(https.map((result) => result.requestsPerSecond)),
        rawRps: median(raws.map((result) => result.perSecond)),
        roundRatios: https.map(
          (result, index) => (result.requestsPerSecond / raws[index]!.perSecond) * 100,
        ),
        httpP50: median(https.map((result) => result.p50)),
        httpP99: median(https.map((result) => result.p99)),
        hostStartRssMiB,
        hostRssMiB: await peakRssMiB(host.child),
        rawRssMiB: await peakRssMiB(raw.child),
        non2xx: https.reduce((sum, result) => sum + result.non2xx, 0),
      };
    } finally {
      await stopChild(raw.child);
    }
  } finally {
    await stopChild(host.child);
  }
}
