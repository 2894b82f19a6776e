import { upgradeRuns } from './upgrades/upgrade-runs.js';
import { versionUsage } from './upgrades/version-usage.js';
import { createEngineMetrics } from './telemetry/engine-metrics.js';
import { createTelemetry } from './telemetry/telemetry.js';
import { createBackgroundWorkers } from './health/background-workers.js';
import { createReadiness } from './health/readiness.js';
import { createIssuerActivations } from './activation/activations.js';
import { createScenarioCatalogue } from './catalogue/scenario-catalogue.js';
import type { Engine, UnitOfWork } from './engine-api.js';
import type { EngineContext } from './engine-context.js';
import type { EngineOptions } from './engine-options.js';
import { createAccessRequest } from './evidence/create-access-request.js';
import { resolveEvidenceKeys } from './evidence/evidence-keys.js';
import { exportEvidence } from './evidence/export-evidence.js';
import { registerHandoffGauges } from './handoffs/handoff-gauges.js';
import { resolveHandoffSettings } from './handoffs/handoff-settings.js';
import { startHandoffWorkers } from './handoffs/handoff-workers.js';
import { partnerStatuses } from './handoffs/partner-status.js';
import { runDueHandoffs } from './handoffs/run-due-handoffs.js';
import { randomIds } from './ids/random-ids.js';
import { createRunChanges } from './kernel/run-changes.js';
import { createTransactionRunner, joinTransaction } from './kernel/transaction-runner.js';
import { createDeliveryWakeup } from './outbox/delivery-wakeup.js';
import { createRunIn, isPrepared, prepareCreation } from './runs/create-run.js';
import { inCreateSpan } from './runs/create-span.js';
import { getRun, listEvents, listRuns } from './runs/run-queries.js';
import { applySignal } from './signals/apply-signal.js';
import { systemClock } from './time/clock.js';
import { createEnvironmentClocks } from './time/environment-clocks.js';
import { runDueTimers } from './time/fire-timers.js';
import { nextDue } from './time/next-due.js';
import { createTestClocks } from './time/test-clock.js';
import type { Scope, StoreTransactionV1 } from './store/store-v1.js';
import { registerOutboxGauge } from './webhooks/outbox-gauge.js';
import { createWebhooks } from './webhooks/webhooks.js';

/** Due time of the scope's earliest pending timer or (in test) queued sandbox job. */
async function nextTimerDueIn(tx: StoreTransactionV1, scope: Scope): Promise<string | null> {
  const next = await nextDue(tx, { environment: scope.environment, account: scope.account });
  return next?.dueAt ?? null;
}

/** The context every module of one engine shares, from the options' defaults. */
function engineContext(options: EngineOptions): EngineContext {
  const liveClock = options.clock ?? systemClock;
  const clocks = createEnvironmentClocks(liveClock, options.testClock ?? liveClock);
  const telemetry = createTelemetry(options.telemetry, '@programrun/engine');
  const metrics = createEngineMetrics(telemetry.meter);
  const onEffectError = (error: unknown) =>
    console.error('programrun: after-commit effect failed:', error);
  const runChanges = createRunChanges(onEffectError);
  return {
    transactions: createTransactionRunner({
      store: options.store,
      maxConflictRetries: options.maxConflictRetries ?? 8,
      onEffectError,
      telemetry: { telemetry, metrics },
      runChanges,
    }),
    runChanges,
    catalogue:
      'list' in options.scenarios ? options.scenarios : createScenarioCatalogue(options.scenarios),
    liveClock,
    clocks,
    ids: options.ids ?? randomIds(),
    sandbox: options.sandbox ?? {},
    handoffs: resolveHandoffSettings(options.connectors, options.handoffs),
    endedCalls: new Set(),
    timerLeaseMs: options.timerLeaseMs ?? 60_000,
    deliveries: createDeliveryWakeup(clocks),
    evidenceKeys: resolveEvidenceKeys(options.evidence?.keys),
    telemetry,
    metrics,
    background: createBackgroundWorkers(),
  };
}

/**
 * Creates an engine over a store and a catalogue of compiled scenarios: the composition
 * root, wiring the modules that do the work (runs, signals, time, activation, evidence,
 * webhooks) over one shared context.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore(), scenarios: [compile(text)] });
 * const scope = { account: 'acct_demo', environment: 'test' } as const;
 * const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: 'k1' });
 * await engine.advanceTestClock('acct_demo', 60); // simulated partners answer
 * ```
 */
export function createEngine(options: EngineOptions): Engine {
  const context = engineContext(options);
  // Batch commit of signals and creates, when asked for (workers always batch).
  const requestBatch =
    options.batch === undefined ? {} : { batch: { maxWaitMs: options.batch.maxWaitMs ?? 0 } };
  const { transactions, catalogue } = context;
  registerHandoffGauges(context);
  registerOutboxGauge(context);
  const testClocks = createTestClocks(context);

  const unitOfWork: Engine['unitOfWork'] = (scope, work) =>
    transactions.run(
      (transaction) => {
        // Services over this transaction: what they read and write is this unit of work's.
        const joined: EngineContext = { ...context, transactions: joinTransaction(transaction) };
        let webhooks: UnitOfWork['webhooks'] | undefined;
        const uow: UnitOfWork = {
          ...transaction,
          scope,
          createRun(request) {
            const prepared = isPrepared(request)
              ? request
              : prepareCreation(catalogue, scope, request);
            return inCreateSpan(context, scope, prepared, (traceContext) =>
              createRunIn(context, transaction, scope, prepared, traceContext),
            );
          },
          signal: (runId, signal) => applySignal(context, transaction, scope, runId, signal),
          createAccessRequest: (input) => createAccessRequest(joined, scope, input),
          get webhooks() {
            return (webhooks ??= createWebhooks(joined, options.webhooks ?? {}));
          },
          now: () => context.clocks.now(transaction.tx, scope),
          nextTimerDue: () => nextTimerDueIn(transaction.tx, scope),
        };
        return work(uow);
      },
      // A creation racing another host for the same key retries once and finds its run.
      { retryDuplicateKey: true },
    );

  return {
    scenarios: catalogue,
    activations: createIssuerActivations(context),
    webhooks: createWebhooks(context, options.webhooks ?? {}),
    unitOfWork,
    async createRun(scope, request) {
      // Checked before the transaction opens, so a retry never validates again.
      const prepared = prepareCreation(catalogue, scope, request);
      return inCreateSpan(context, scope, prepared, (traceContext) =>
        // A create writes once (its first transition) and only reads after.
        transactions.run(
          (transaction) => createRunIn(context, transaction, scope, prepared, traceContext),
          { retryDuplicateKey: true, singleWrite: true, ...requestBatch },
        ),
      );
    },
    prepareRun: (scope, request) => prepareCreation(catalogue, scope, request),
    getRun: (scope, id) => getRun(context, scope, id),
    listRuns: (scope, query) => listRuns(context, scope, query),
    listEvents: (scope, runId, query) => listEvents(context, scope, runId, query),
    // A signal writes once (its transition) and only reads after: two round trips on SQL.
    signal: async (scope, runId, signal) =>
      transactions.run((transaction) => applySignal(context, transaction, scope, runId, signal), {
        singleWrite: true,
        ...requestBatch,
      }),
    runDueTimers: (environment, timerOptions) =>
      runDueTimers(context, environment, timerOptions?.signal),
    advanceTestClock: (account, seconds) => testClocks.advance(account, seconds),
    advanceTestClockTo: (account, target) => testClocks.advanceTo(account, target),
    createAccessRequest: async (scope, input) => createAccessRequest(context, scope, input),
    exportEvidence: (scope, runId) => exportEvidence(context, scope, runId),
    evidenceKeys: (environment) => context.evidenceKeys.publicJwks(environment),
    nextTimerDue: (scope) => transactions.run(({ tx }) => nextTimerDueIn(tx, scope)),
    runDueHandoffs: (environment) => runDueHandoffs(context, environment),
    startHandoffWorkers: (workerOptions) => startHandoffWorkers(context, workerOptions),
    partners: (scope) => partnerStatuses(context, scope),
    versionUsage: (scope, name) => versionUsage(context, scope, name),
    upgradeRuns: (scope, upgradeOptions) => upgradeRuns(context, scope, upgradeOptions),
    now: (scope) => transactions.run(({ tx }) => context.clocks.now(tx, scope)),
    watchRun: (scope, runId, listener) => context.runChanges.watch(scope, runId, listener),
    readiness: createReadiness(options.store, context.background),
    background: context.background,
  };
}
