import {
  context as contextApi,
  isSpanContextValid,
  SpanKind,
  trace,
  type Span,
} from '@opentelemetry/api';
import { EngineError } from '../errors.js';
import { isStoreError } from '../store/store-error.js';
import type { StoreTransactionOptions, StoreV1 } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import type { EngineMetrics } from '../telemetry/engine-metrics.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { observeRunWrites, type ChangedRun, type RunChanges } from './run-changes.js';
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
  run<T>(work: (transaction: Transaction) => Promise<T>, options?: RunOptions): Promise<T>;
}

/** Options of {@link TransactionRunner.run}. */
export interface RunOptions {
  /** Retry once after losing a unique-key race. */
  readonly retryDuplicateKey?: boolean;
  /**
   * The work writes once at most, with one `writeTransition` and nothing after it (the
   * store's `singleWrite`): a SQL store reads before BEGIN and commits that write by itself.
   */
  readonly singleWrite?: boolean;
  /**
   * With `singleWrite`: the write may be committed with other runs' writes arriving at the
   * same time (the store's `batch`).
   */
  readonly batch?: StoreTransactionOptions['batch'];
}

/** What {@link createTransactionRunner} needs. */
export interface TransactionRunnerOptions {
  readonly store: StoreV1;
  /** Retries of a transaction that lost a compare-and-swap race. */
  readonly maxConflictRetries: number;
  /** Where a failing after-commit effect is reported (it cannot undo the commit). */
  readonly onEffectError: (error: unknown) => void;
  /**
   * Spans (`programrun.store.transaction`) and the store transaction and conflict
   * counters; none when absent or disabled.
   */
  readonly telemetry?: { readonly telemetry: Telemetry; readonly metrics: EngineMetrics };
  /** Told of the runs each committed transaction inserted or updated; none when absent. */
  readonly runChanges?: RunChanges;
}

const SINGLE_WRITE: StoreTransactionOptions = { singleWrite: true };

/** The store's options of a single-write unit of work that may be batched. */
const batched = new Map<number, StoreTransactionOptions>();
const batchedWrite = (batch: NonNullable<RunOptions['batch']>): StoreTransactionOptions => {
  let options = batched.get(batch.maxWaitMs);
  if (!options) batched.set(batch.maxWaitMs, (options = { singleWrite: true, batch }));
  return options;
};

/** The span of one store transaction, its conflict retries included. */
export const TRANSACTION_SPAN = 'programrun.store.transaction';

type Outcome = 'committed' | 'conflict' | 'failed';

/** Counts each attempt by outcome, and each retry after a conflict. */
function transactionCounter(metrics: EngineMetrics) {
  const attributes = {
    committed: { [ATTRIBUTES.outcome]: 'committed' },
    conflict: { [ATTRIBUTES.outcome]: 'conflict' },
    failed: { [ATTRIBUTES.outcome]: 'failed' },
  } as const;
  return (outcome: Outcome, retried: boolean): void => {
    metrics.storeTransactions.add(1, attributes[outcome]);
    if (retried) metrics.storeConflicts.add(1);
  };
}

/**
 * The engine's one way into the store.
 */
export function createTransactionRunner(options: TransactionRunnerOptions): TransactionRunner {
  const { store, maxConflictRetries, onEffectError, runChanges } = options;
  const telemetry = options.telemetry?.telemetry.enabled ? options.telemetry : undefined;
  const count = telemetry ? transactionCounter(telemetry.metrics) : undefined;

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

  async function attempt<T>(
    work: (transaction: Transaction) => Promise<T>,
    startedAt: number | undefined,
    storeOptions: StoreTransactionOptions | undefined,
  ): Promise<T> {
    const effects: AfterCommitEffect[] = [];
    const afterCommit = (effect: AfterCommitEffect) => void effects.push(effect);
    const changed = new Map<string, ChangedRun>();
    // Begun while nobody watched: not observed, so whoever subscribes before it commits is
    // told after the commit (their first reads may have come before it).
    let unobservedSince: number | undefined;
    const result = await store.transaction((storeTx) => {
      const watched = runChanges?.watching() ?? false;
      unobservedSince = watched ? undefined : runChanges?.mark();
      const tx = watched
        ? observeRunWrites(storeTx, ({ account, environment, id }) =>
            changed.set(id, { account, environment, id }),
          )
        : storeTx;
      return work(startedAt === undefined ? { tx, afterCommit } : { tx, afterCommit, startedAt });
    }, storeOptions);
    runEffects(effects);
    if (changed.size > 0) runChanges?.committed(changed.values());
    if (unobservedSince !== undefined) runChanges?.committedSince(unobservedSince);
    return result;
  }

  /**
   * Attempts `work` until one commits: a conflict retries (up to the limit, then
   * `concurrent_update`), and so does losing a unique-key race once when asked (with a
   * fresh conflict budget).
   */
  async function attempts<T>(
    work: (transaction: Transaction) => Promise<T>,
    { retryDuplicateKey = false, singleWrite = false, batch }: RunOptions,
    span: Span | undefined,
  ): Promise<T> {
    const startedAt = telemetry ? performance.now() : undefined;
    const storeOptions = !singleWrite
      ? undefined
      : batch === undefined
        ? SINGLE_WRITE
        : batchedWrite(batch);
    let conflicts = 0;
    let retries = 0;
    let duplicateRetried = false;
    try {
      for (;;) {
        try {
          const result = await attempt(work, startedAt, storeOptions);
          count?.('committed', false);
          return result;
        } catch (error) {
          if (isStoreError(error, 'version_conflict')) {
            const retry = conflicts < maxConflictRetries;
            count?.('conflict', retry);
            if (!retry)
              throw new EngineError(
                'concurrent_update',
                'The run kept changing under concurrent updates; retry.',
              );
            conflicts += 1;
          } else if (
            retryDuplicateKey &&
            !duplicateRetried &&
            isStoreError(error, 'duplicate_key')
          ) {
            count?.('conflict', true);
            duplicateRetried = true;
            conflicts = 0;
          } else {
            count?.('failed', false);
            throw error;
          }
          retries += 1;
        }
      }
    } finally {
      if (span?.isRecording()) span.setAttribute(ATTRIBUTES.storeConflictRetries, retries);
    }
  }

  return {
    run(work, options = {}) {
      // A span only under another one (a request's, a run's): background polling that
      // finds nothing to do starts no trace of its own.
      const parent = telemetry && trace.getSpanContext(contextApi.active());
      if (!telemetry || !parent || !isSpanContextValid(parent))
        return attempts(work, options, undefined);
      return telemetry.telemetry.inSpan(TRANSACTION_SPAN, { kind: SpanKind.INTERNAL }, (span) =>
        attempts(work, options, span),
      );
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
