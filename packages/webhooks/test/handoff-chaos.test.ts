// The handoff chaos drill on the memory store: a real HTTP partner on loopback answers
// slowly, fails transiently, answers twice, answers 202 then calls back, and drops
// connections; every handoff is applied exactly once, and every call of a handoff carried
// its pik_ key and a signature the partner verified with `standardwebhooks`.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createMemoryStore } from '@programrun/engine';
import { runHandoffChaos } from './handoff-chaos.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

describe('handoffs through the HTTP connector to a chaotic partner (memory store)', () => {
  it('applies every handoff exactly once, every call with its pik_ key and a valid signature', async () => {
    const report = await runHandoffChaos({
      store: createMemoryStore(),
      scenarios,
      runs: 24,
      ...(process.env.CHAOS_SEED ? { seed: Number(process.env.CHAOS_SEED) } : {}),
    });
    const context = `seed ${report.seed}; calls ${JSON.stringify(report.behaviours)}`;
    console.info(`memory store chaos: ${report.calls.length} calls, ${context}`);
    expect(report.audit.problems, context).toEqual([]);
    expect(report.failedCallbacks, context).toEqual([]);
    expect(report.workerErrors, context).toEqual([]);
    expect(report.runs.map((run) => run.status)).toEqual(report.runs.map(() => 'completed'));
    // Two handoffs per run, each answered once.
    expect(report.audit.handoffs).toHaveLength(48);
    expect(report.audit.handoffs.every((handoff) => handoff.answers === 1)).toBe(true);
    // The drill did what it says: retries happened (same key, several calls) and every
    // behaviour occurred.
    expect(report.retriedKeys, context).toBeGreaterThan(0);
    for (const kind of ['answer', 'fail', 'accept', 'twice', 'drop']) {
      expect(report.behaviours[kind] ?? 0, `${kind}: ${context}`).toBeGreaterThan(0);
    }
    // Each call of a connector is a lifecycle record (calls the partner answered after a
    // callback won may have none: their settle found the job closed).
    const attempted = report.audit.handoffs.reduce(
      (sum, handoff) => sum + handoff.attempted.length,
      0,
    );
    expect(attempted, context).toBeGreaterThan(0);
    expect(attempted, context).toBeLessThanOrEqual(report.calls.length);
  }, 60_000);
});
