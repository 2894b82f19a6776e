import { randomUUID } from 'node:crypto';
import { createRunHeaders } from '../servers/bench-key.js';

/**
 * The `p`-th percentile (0–100) of samples, nearest rank.
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 50); // 2
 * ```
 */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Sends `count` creates one after another (one in flight, keep-alive) and returns each
 * one's latency in milliseconds, measured around the whole request and response.
 *
 * @example
 * ```ts
 * const latencies = await sequentialCreates(port, body, 500);
 * ```
 */
export async function sequentialCreates(
  port: number,
  body: string,
  count: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/v1/program-runs`, {
      method: 'POST',
      headers: createRunHeaders(randomUUID()),
      body,
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
  }
  return latencies;
}
