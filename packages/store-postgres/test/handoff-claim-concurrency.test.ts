// A party's max_in_flight across hosts on one PostgreSQL schema: two hosts (two pools)
// claim the same party at the same moment, many times over, and the jobs leased never
// exceed the cap. FOR UPDATE SKIP LOCKED alone keeps two claims from taking the same job,
// not from both taking the last slot: the per-(environment, party) advisory lock does.
import { afterEach, describe, expect, it } from 'vitest';
import type { HandoffJobClaim, HandoffJobRow } from '@programrun/engine';
import { createPostgresStore, type SqlStore } from '../src/index.js';
import { createTestPostgresStore, TEST_DATABASE_URL } from './support/test-database.js';

const MAX_IN_FLIGHT = 3;
const at = (second: number): string => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();

function job(index: number): HandoffJobRow {
  const id = `hjob_${String(index).padStart(4, '0')}`;
  return {
    id,
    run_id: `prun_${id}`,
    account: `acct_${index % 4}`,
    environment: 'live',
    party: 'carrier',
    step: 'deliver',
    attempt: 1,
    idempotency_key: `pik_${id}`,
    request: { run_id: `prun_${id}`, step: 'deliver' },
    deadline: at(100_000),
    status: 'queued',
    calls: 0,
    next_attempt_at: at(0),
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: at(0),
    updated_at: at(0),
  };
}

const claimOf = (owner: string, leaseNow: number, leaseMs: number): HandoffJobClaim => ({
  environment: 'live',
  party: 'carrier',
  due_at: at(100_000),
  lease_now: at(leaseNow),
  lease_until: at(leaseNow + leaseMs),
  owner,
  limit: MAX_IN_FLIGHT,
  max_in_flight: MAX_IN_FLIGHT,
  max_per_account: 2,
});

/** Worker `worker`'s claim: one account's jobs (workers 0 to 3) or every account's (4, 5). */
const withAccount = (claim: HandoffJobClaim, worker: number): HandoffJobClaim =>
  worker < 4 ? { ...claim, account: `acct_${worker}` } : claim;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Two hosts on one fresh schema, each with its own pool of connections. */
async function twoHosts(jobs: number): Promise<[SqlStore, SqlStore]> {
  const first = await createTestPostgresStore({ maxConnections: 4 });
  cleanup.push(() => first.close());
  const schema = first.schema.slice(1, -1);
  const second = await createPostgresStore({
    connectionString: TEST_DATABASE_URL,
    schema,
    maxConnections: 4,
  });
  cleanup.push(() => second.close());
  await first.transaction((tx) =>
    tx.insertHandoffJobs(Array.from({ length: jobs }, (_, index) => job(index))),
  );
  return [first, second];
}

describe('handoff job claims on two PostgreSQL hosts', () => {
  it('never lease more than max_in_flight of a party when claiming at the same moment', async () => {
    const hosts = await twoHosts(400);
    for (let round = 0; round < 40; round += 1) {
      // Every lease of the previous round has ended: all three slots are free again.
      const leaseNow = round * 10;
      // Claims see different jobs (some one account's, as a test clock claims): without
      // serialization each would count the others' uncommitted leases as free slots.
      const batches = await Promise.all(
        [0, 1, 2, 3, 4].map((worker) =>
          hosts[worker % 2]!.transaction((tx) =>
            tx.claimHandoffJobs(withAccount(claimOf(`wkr_${worker}`, leaseNow, 10), worker)),
          ),
        ),
      );
      const claimed = batches.flat().map((row) => row.id);
      expect(new Set(claimed).size, `round ${round}`).toBe(claimed.length);
      expect(claimed, `round ${round}`).toHaveLength(MAX_IN_FLIGHT);
      // Settle them so the next round claims other jobs.
      await Promise.all(
        batches
          .flat()
          .map((row, index) =>
            hosts[index % 2]!.transaction((tx) =>
              tx.updateHandoffJob(
                { ...row, status: 'closed', lease_owner: null, lease_until: null },
                { lease_owner: row.lease_owner, calls: row.calls },
              ),
            ),
          ),
      );
    }
  });

  it('keeps at most max_in_flight leased while workers on both hosts claim and settle at random', async () => {
    const hosts = await twoHosts(300);
    const [observer] = hosts;
    const leaseNow = 0;
    let held = 0;
    let maxHeld = 0;
    let maxSeen = 0;
    let settled = 0;
    let running = true;
    // An observer reads the leases held in one snapshot, over and over.
    const observe = (async () => {
      while (running) {
        const loads = await observer.transaction((tx) =>
          tx.handoffPartyLoads({ environment: 'live', party: 'carrier' }, at(leaseNow)),
        );
        maxSeen = Math.max(maxSeen, loads[0]?.in_flight ?? 0);
      }
    })();
    const worker = async (host: SqlStore, owner: string, index: number): Promise<void> => {
      for (let turn = 0; turn < 30; turn += 1) {
        const jobs = await host.transaction((tx) =>
          tx.claimHandoffJobs(
            withAccount({ ...claimOf(owner, leaseNow, 1_000), limit: 1 + (turn % 3) }, index),
          ),
        );
        held += jobs.length;
        maxHeld = Math.max(maxHeld, held);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        for (const row of jobs) {
          // Counted out before the settle commits: `held` never overstates the leases.
          held -= 1;
          await host.transaction((tx) =>
            tx.updateHandoffJob(
              { ...row, status: 'closed', lease_owner: null, lease_until: null },
              { lease_owner: row.lease_owner, calls: row.calls },
            ),
          );
          settled += 1;
        }
      }
    };
    await Promise.all(
      ['wkr_a', 'wkr_b', 'wkr_c', 'wkr_d', 'wkr_e', 'wkr_f'].map((owner, index) =>
        worker(hosts[index % 2]!, owner, index),
      ),
    );
    running = false;
    await observe;
    expect(settled).toBeGreaterThan(30);
    expect(maxHeld).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(maxSeen).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(maxSeen).toBeGreaterThan(0);
  });
});
