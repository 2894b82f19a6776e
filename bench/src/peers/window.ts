// One measured window: `concurrency` starters (async loops in this process) take the next
// of `count` workflows until none is left, each driving its workflow to completion before
// taking another; a window that takes longer than `limitMs` fails the script. Around it: the server's counters (server-counters.ts), this
// process's CPU (process.cpuUsage) and its resident set, sampled every 100 ms.
import { serverDelta, type ServerCounters, type ServerDelta } from './server-counters.js';

/** Drives one workflow to completion; `lane` is the starter's index (0 … concurrency − 1). */
export type Workflow = (lane: number) => Promise<void>;

/** What one window measured. */
export interface WindowFigures {
  readonly workflows: number;
  readonly seconds: number;
  /** Milliseconds from start to completion of each workflow. */
  readonly latencies: readonly number[];
  /** CPU seconds of this process (user + system) in the window. */
  readonly nodeCpuSeconds: number;
  readonly server: ServerDelta;
  /** Largest resident set of this process seen in the window, in MiB. */
  readonly rssMiB: number;
}

/**
 * Runs `count` workflows from `concurrency` starters and measures the window.
 *
 * @example
 * ```ts
 * const figures = await measureWindow(counters, (lane) => oneRun(lane), 16, 300);
 * console.log(figures.workflows / figures.seconds, 'workflows/s');
 * ```
 */
export async function measureWindow(
  counters: ServerCounters,
  workflow: Workflow,
  concurrency: number,
  count: number,
  limitMs = 180_000,
): Promise<WindowFigures> {
  const latencies: number[] = [];
  let rss = process.memoryUsage.rss();
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage.rss())), 100);
  sampler.unref();
  const before = await counters.sample();
  const cpu = process.cpuUsage();
  const begin = performance.now();
  let next = 0;
  let limit: ReturnType<typeof setTimeout> | undefined;
  try {
    const starters = Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async (_, lane) => {
        while (next < count) {
          next += 1;
          const start = performance.now();
          await workflow(lane);
          latencies.push(performance.now() - start);
        }
      }),
    );
    const late = new Promise<never>((_, reject) => {
      limit = setTimeout(() => {
        next = count; // the starters take nothing more
        reject(new Error(`a window of ${count} workflows took over ${limitMs / 1000} s`));
      }, limitMs);
    });
    await Promise.race([starters, late]);
  } finally {
    clearTimeout(limit);
    clearInterval(sampler);
  }
  const seconds = (performance.now() - begin) / 1000;
  const used = process.cpuUsage(cpu);
  const after = await counters.sample();
  return {
    workflows: count,
    seconds,
    latencies,
    nodeCpuSeconds: (used.user + used.system) / 1e6,
    server: serverDelta(before, after),
    rssMiB: Math.max(rss, process.memoryUsage.rss()) / 2 ** 20,
  };
}

/** The `fraction` quantile (0.5, 0.99) of `values`, nearest rank. */
export function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
}
