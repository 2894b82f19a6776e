// Model-based property for handoff jobs: random arrivals, claims (with and without caps,
// per account or per party, leases ending at random, ties between accounts' turns broken
// by the party's memory of turns), settles under the worker's fence, closes and reads
// give the same answers on PGlite as on the memory store, and no claim ever leaves more
// than max_in_flight of a party in flight.
import fc from 'fast-check';
import { expect } from 'vitest';
import { type HandoffJobRow, type StoreTransactionV1 } from '@programrun/engine';
import { compareWithMemoryStore } from './support/model-comparison.js';

const MAX_IN_FLIGHT = 2;
const at = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

const accounts = fc.constantFrom('acct_1', 'acct_2', 'acct_3');
const parties = fc.constantFrom('carrier', 'bank');
const runs = fc.constantFrom('prun_a', 'prun_b', 'prun_c');
const jobIds = fc.constantFrom('hjob_1', 'hjob_2', 'hjob_3', 'hjob_4', 'hjob_5', 'hjob_6');
const owners = fc.constantFrom('wkr_1', 'wkr_2');

const arrive = fc.record({
  op: fc.constant('arrive' as const),
  id: jobIds,
  run: runs,
  account: accounts,
  party: parties,
  due: fc.integer({ min: 0, max: 6 }),
});
const claim = fc.record({
  op: fc.constant('claim' as const),
  owner: owners,
  party: fc.option(parties, { nil: undefined, freq: 4 }),
  account: fc.option(accounts, { nil: undefined, freq: 3 }),
  capped: fc.boolean(),
  perAccount: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
  due: fc.integer({ min: 0, max: 6 }),
  // Leases last 10 s: claims at 0 and 5 overlap, and a lease ending exactly at a
  // claim's now (10, 20) is free.
  leaseNow: fc.constantFrom(0, 5, 10, 20),
  limit: fc.integer({ min: 0, max: 4 }),
});
const command = fc.oneof(
  { arbitrary: arrive, weight: 3 },
  { arbitrary: claim, weight: 3 },
  fc.record({
    op: fc.constant('settle' as const),
    id: jobIds,
    owner: fc.option(owners, { nil: null }),
    outcome: fc.constantFrom('closed', 'accepted', 'exhausted', 'retry'),
  }),
  fc.record({
    op: fc.constant('close' as const),
    run: runs,
    keep: fc.subarray(['hjob_1', 'hjob_2', 'hjob_3', 'hjob_4', 'hjob_5', 'hjob_6']),
  }),
  fc.record({
    op: fc.constant('read' as const),
    account: fc.option(accounts, { nil: undefined }),
    party: fc.option(parties, { nil: undefined }),
    leaseNow: fc.constantFrom(0, 5, 10, 20),
    // Jobs whose calls are over: leased or not, known or not.
    ended: fc.subarray(['hjob_1', 'hjob_2', 'hjob_3', 'hjob_4', 'hjob_5', 'hjob_6', 'hjob_9']),
  }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

function job(command: Extract<Command, { op: 'arrive' }>): HandoffJobRow {
  return {
    id: command.id,
    run_id: command.run,
    account: command.account,
    environment: 'live',
    party: command.party,
    step: `step_${command.id}`,
    attempt: 1,
    idempotency_key: `pik_${command.id}`,
    request: { step: `step_${command.id}`, data: { n: command.due } },
    deadline: at(50),
    status: 'queued',
    calls: 0,
    next_attempt_at: at(command.due),
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: at(0),
    updated_at: at(0),
  };
}

/** Every job the store holds, by run. */
const allJobs = async (tx: StoreTransactionV1): Promise<HandoffJobRow[]> =>
  (await Promise.all(['prun_a', 'prun_b', 'prun_c'].map((run) => tx.handoffJobsOfRun(run)))).flat();

/** Applies one command; the answer is what a caller can observe. */
async function apply(tx: StoreTransactionV1, command: Command): Promise<unknown> {
  switch (command.op) {
    case 'arrive':
      return tx.insertHandoffJobs([job(command)]);
    case 'claim': {
      const claimed = await tx.claimHandoffJobs({
        environment: 'live',
        ...(command.party ? { party: command.party } : {}),
        ...(command.account ? { account: command.account } : {}),
        ...(command.capped && command.party ? { max_in_flight: MAX_IN_FLIGHT } : {}),
        ...(command.perAccount ? { max_per_account: command.perAccount } : {}),
        due_at: at(command.due),
        lease_now: at(command.leaseNow),
        lease_until: at(command.leaseNow + 10),
        owner: command.owner,
        limit: command.limit,
      });
      if (command.capped && command.party) {
        const [load] = await tx.handoffPartyLoads(
          { environment: 'live', party: command.party },
          at(command.leaseNow),
        );
        // Uncapped claims may have leased more; a capped one then takes none.
        if (claimed.length > 0) expect(load!.in_flight).toBeLessThanOrEqual(MAX_IN_FLIGHT);
      }
      return claimed;
    }
    case 'settle': {
      const current = (await allJobs(tx)).find((row) => row.id === command.id);
      if (!current) return 'absent';
      const { outcome } = command;
      const retry = outcome === 'retry';
      return tx.updateHandoffJob(
        {
          ...current,
          status: outcome === 'retry' ? 'queued' : outcome,
          next_attempt_at: retry ? at(7) : current.next_attempt_at,
          lease_owner: null,
          lease_until: null,
          last_error: retry ? { class: 'timeout', message: 'slow', status: null, at: at(6) } : null,
          updated_at: at(6),
        },
        { lease_owner: command.owner, calls: current.calls },
      );
    }
    case 'close':
      return tx.closeHandoffJobs(command.run, command.keep, at(8));
    case 'read': {
      const query = {
        environment: 'live' as const,
        ...(command.account ? { account: command.account } : {}),
        ...(command.party ? { party: command.party } : {}),
      };
      return {
        next: (await tx.nextHandoffJob(query)) ?? null,
        loads: await tx.handoffPartyLoads(query, at(command.leaseNow), command.ended),
        jobs: await allJobs(tx),
      };
    }
  }
}

compareWithMemoryStore({
  describe: 'handoff jobs on PGlite answer like the memory store (model-based)',
  it: 'gives the same answer to every operation, never exceeding max_in_flight',
  schemaPrefix: 'jobs',
  sequences: fc.array(command, { minLength: 20, maxLength: 60 }),
  apply,
  numRuns: 60,
});
