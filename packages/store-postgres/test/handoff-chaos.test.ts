// The handoff chaos drill (see webhooks/test/handoff-chaos.ts) on PostgreSQL: jobs are
// claimed with FOR UPDATE SKIP LOCKED, settled in the run's transaction, and closed by
// callbacks racing the workers; every handoff is applied exactly once, every call carried
// its pik_ key and a signature the partner verified with `standardwebhooks`.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { runHandoffChaos } from '../../webhooks/test/handoff-chaos.js';
import { createTestPostgresStore } from './support/test-database.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('handoffs through the HTTP connector to a chaotic partner (PostgreSQL)', () => {
  it('applies every handoff exactly once and leaves no job open', async () => {
    const store = await createTestPostgresStore({ maxConnections: 8 });
    cleanup.push(() => store.close());
    const report = await runHandoffChaos({ store, scenarios, runs: 20 });
    const context = `seed ${report.seed}; calls ${JSON.stringify(report.behaviours)}`;
    console.info(`PostgreSQL chaos: ${report.calls.length} calls, ${context}`);
    expect(report.audit.problems, context).toEqual([]);
    expect(report.failedCallbacks, context).toEqual([]);
    expect(report.workerErrors, context).toEqual([]);
    expect(
      report.runs.every((run) => run.status === 'completed'),
      context,
    ).toBe(true);
    expect(report.audit.handoffs).toHaveLength(40);
    expect(report.retriedKeys, context).toBeGreaterThan(0);
    const open = await store.transaction(async (tx) => {
      const jobs = await Promise.all(report.runs.map((run) => tx.handoffJobsOfRun(run.id)));
      return jobs.flat().filter((job) => job.status !== 'closed');
    });
    expect(open, context).toEqual([]);
  }, 60_000);
});
