import { EngineError } from '../errors.js';
import { isStoreError } from '../store/store-error.js';
import type { StoreV1 } from '../store/store-v1.js';
import type { AfterCommitEffect, Transaction } from './transaction.js';

/** Runs work in store transactions, retried whole on conflicts, with after-commit effects. */
export interface TransactionRunner {
  /**
   * Runs `work` in one store transaction. A compare-and-swap conflict (`version_conflict`)
   * retries the whole of `work` (up to the engine's limit, then `concurrent_update`); with
   * `retryDuplicateKey`, so does losing a unique-key race once (the retry finds what the
   * other writer inserted). Effects registered with `afterCommit` run after the commit, in
   * order, and never for an attempt that did not commit.
   */
  run<T>(
    work: (transaction: Transaction) => Promise<T>,
    options?: { readonly retryDuplicateKey?: boolean },
  ): Promise<T>;
}

/** What {@link createTransactionRunner} needs. */
export interface TransactionRunnerOptions {
  readonly store: StoreV1;
  /** Retries of a transaction that lost a compare-and-swap race. */
  readonly maxConflictRetries: number;
  /** Where a failing after-commit effect is reported (it cannot undo the commit). */
  readonly onEffectError: (error: unknown) => void;
}

/**
 * The engine's one way into the store.
 */
export function createTransactionRunner(options: TransactionRunnerOptions): TransactionRunner {
  const { store, maxConflictRetries, onEffectError } = options;

  function runEffects(effects: readonly AfterCommitEffect[]): void {
    for (const effect of effects) {
      try {
        const pending = effect();
        if (pending instanceof Promise) pending.catch(onEffectError);
      } catch (error) {
        onEffectError(error);
      }
    }
  }

  async function attempt<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    const effects: AfterCommitEffect[] = [];
    const result = await store.transaction((tx) =>
      work({ tx, afterCommit: (effect) => void effects.push(effect) }),
    );
    runEffects(effects);
    return result;
  }

  async function withConflictRetry<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry += 1) {
      try {
        return await attempt(work);
      } catch (error) {
        if (!isStoreError(error, 'version_conflict')) throw error;
        if (retry >= maxConflictRetries)
          throw new EngineError(
            'concurrent_update',
            'The run kept changing under concurrent updates; retry.',
          );
      }
    }
  }

  return {
    async run(work, { retryDuplicateKey = false } = {}) {
      try {
        return await withConflictRetry(work);
      } catch (error) {
        if (retryDuplicateKey && isStoreError(error, 'duplicate_key'))
          return withConflictRetry(work);
        throw error;
      }
    },
  };
}

/**
 * A runner that runs all work in one transaction that is already open (a unit of work):
 * services built over it read and write inside that transaction, and its retry and
 * after-commit effects are the unit of work's.
 */
export function joinTransaction(transaction: Transaction): TransactionRunner {
  return { run: (work) => work(transaction) };
}
