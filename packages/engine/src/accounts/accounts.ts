import { randomIds, type IdGenerator } from '../ids/random-ids.js';
import type { StoreV1 } from '../store/store-v1.js';
import { systemClock, type Clock } from '../time/clock.js';
import { createApiKeys, type ApiKeys } from './api-keys.js';

/** What {@link createAccounts} needs. */
export interface AccountsOptions {
  /** The store the engine uses too (keys live in the same database). */
  readonly store: StoreV1;
  /** Key creation and revocation times. @default systemClock */
  readonly clock?: Clock;
  /** Makes key ids. @default randomIds() */
  readonly ids?: IdGenerator;
  /**
   * How long this host reuses a successful API key authentication without a store read
   * (milliseconds). A key revoked on this host is refused at once; other hosts sharing
   * the store refuse it within this time. 0 reads the store on every request.
   * @default 5000
   */
  readonly apiKeyCacheMs?: number;
}

/**
 * The accounts of a deployment: who may call it. Separate from the engine, which runs
 * runs for scopes and never authenticates; the HTTP layer (and the `keys` CLI) use it.
 */
export interface Accounts {
  /** API keys (`pr_test_…`, `pr_live_…`), kept only as digests: create, list, revoke, authenticate. */
  readonly apiKeys: ApiKeys;
}

/**
 * The accounts module over a store.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const accounts = createAccounts({ store });
 * const { secret } = await accounts.apiKeys.create({ account: 'acct_demo', environment: 'test' });
 * ```
 */
export function createAccounts(options: AccountsOptions): Accounts {
  return {
    apiKeys: createApiKeys({
      store: options.store,
      clock: options.clock ?? systemClock,
      ids: options.ids ?? randomIds(),
      ...(options.apiKeyCacheMs === undefined ? {} : { cacheMs: options.apiKeyCacheMs }),
    }),
  };
}
