import { describe } from 'vitest';
import type { StoreV1 } from './store/store-v1.js';
import { defineAccountContract } from './store-contract/account-contract.js';
import { defineHandoffJobClaimContract } from './store-contract/handoff-job-claim-contract.js';
import { defineHandoffJobContract } from './store-contract/handoff-job-contract.js';
import { defineIdempotencyContract } from './store-contract/idempotency-contract.js';
import { defineLeaseReleaseContract } from './store-contract/lease-release-contract.js';
import { defineRunContract } from './store-contract/run-contract.js';
import { defineRunFilterContract } from './store-contract/run-filter-contract.js';
import { defineTimerContract } from './store-contract/timer-contract.js';
import { defineTransitionContract } from './store-contract/transition-contract.js';
import { defineTraceContextContract } from './store-contract/trace-context-contract.js';
import { defineUnstorableContract } from './store-contract/unstorable-contract.js';
import { defineWebhookClaimContract } from './store-contract/webhook-claim-contract.js';
import { defineWebhookBacklogContract } from './store-contract/webhook-backlog-contract.js';
import { defineWebhookStoreContract } from './store-contract/webhook-contract.js';
import { defineWebhookScanContract } from './store-contract/webhook-scan-contract.js';

/** How the contract suite gets a fresh, empty store for each test. */
export type StoreFactory = () => Promise<StoreV1> | StoreV1;

/**
 * The Store spec v1 contract: every store (memory, PGlite, PostgreSQL) must pass it.
 * Call it from a vitest file with a factory that returns a fresh, empty store. One part
 * per table group, as the spec is split (runs, timers, accounts, idempotency, webhooks, handoff jobs),
 * one for a transition's single read and single write,
 * one for the leases a stopping host gives back, and one for the values every store must
 * refuse alike (`unstorable_value`).
 *
 * @example
 * ```ts
 * import { defineStoreContract } from '@programrun/engine/store-contract';
 * defineStoreContract('memory', () => createMemoryStore());
 * ```
 */
export function defineStoreContract(name: string, createStore: StoreFactory): void {
  describe(`Store spec v1 contract: ${name}`, () => {
    const withStore = async (test: (store: StoreV1) => Promise<void>): Promise<void> => {
      const store = await createStore();
      try {
        await test(store);
      } finally {
        await store.close();
      }
    };
    defineRunContract(withStore);
    defineRunFilterContract(withStore);
    defineTimerContract(withStore);
    defineAccountContract(withStore);
    defineIdempotencyContract(withStore);
    defineWebhookStoreContract(withStore);
    defineWebhookClaimContract(withStore);
    defineWebhookScanContract(withStore);
    defineWebhookBacklogContract(withStore);
    defineHandoffJobContract(withStore);
    defineHandoffJobClaimContract(withStore);
    defineTransitionContract(withStore);
    defineLeaseReleaseContract(withStore);
    defineTraceContextContract(withStore);
    defineUnstorableContract(withStore);
  });
}
