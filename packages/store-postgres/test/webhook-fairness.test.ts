// Fair webhook delivery on PostgreSQL (issue 15): tenant A's 14 endpoints never answer,
// tenant B's one endpoint is fast; the real dispatcher leases deliveries with the SQL
// store's fair claim (accounts take turns, per-account and per-endpoint caps counted from
// leases) over real sockets on 127.0.0.1, and B's p99 stays under 1 s with a 2 s timeout.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine } from '@programrun/engine';
import { measureNoisyNeighbour } from '../../webhooks/test/noisy-neighbour.js';
import { createTestPostgresStore } from './support/test-database.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('fair webhook delivery on PostgreSQL', () => {
  it("keeps tenant B's p99 under 1 s while tenant A's 14 endpoints never answer", async () => {
    const store = await createTestPostgresStore();
    cleanup.push(() => store.close());
    const engine = createEngine({ store, scenarios, webhooks: { allowLoopback: true } });
    const result = await measureNoisyNeighbour({
      engine,
      silentEndpoints: 14,
      dispatcher: { timeoutMs: 2_000 },
      windowMs: 5_000,
      deadlineMs: 10_000,
      cleanup: (step) => cleanup.push(step),
    });
    console.info('PostgreSQL store, tenant B delivery latency (ms):', JSON.stringify(result));
    expect(result.rejected).toBe(0);
    expect(result.delivered).toBe(result.tenantBEvents);
    expect(result.p99).toBeLessThan(1_000);
    expect(result.tenantAMaxInFlight).toBeLessThanOrEqual(12);
    expect(result.tenantAMaxInFlight).toBeGreaterThan(0);
  });
});
