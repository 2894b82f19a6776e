import { pendingDelivery } from '../outbox/enqueue-events.js';
import { lifecycleEventRows } from '../outbox/lifecycle-events.js';
import { matchesEnabledEvents } from '../webhooks/event-filter.js';
import { isStoreError, StoreError } from './store-error.js';
import type { StoreTransactionV1 } from './store-v1.js';
import {
  assertTransitionWrite,
  type RunForTransition,
  type TransitionWrite,
  type TransitionWritten,
} from './transition-spec.js';
import type { WebhookDeliveryRow } from './webhook-spec.js';

/** The operations the composed transition operations are built from. */
export type TransitionParts = Omit<StoreTransactionV1, 'loadRunForTransition' | 'writeTransition'>;

/**
 * {@link TransitionOperations} composed of a store's other operations, one after another
 * in its transaction (the transaction makes them all or nothing): what the memory store
 * uses, and what a store without a faster path can use.
 *
 * @example
 * ```ts
 * const tx = { ...tables, ...transitionByOperations(tables) };
 * ```
 */
export function transitionByOperations(
  tx: TransitionParts,
): Pick<StoreTransactionV1, 'loadRunForTransition' | 'writeTransition'> {
  return {
    async loadRunForTransition(scope, id): Promise<RunForTransition | undefined> {
      const run = await tx.getRun(scope, id);
      if (!run) return undefined;
      return {
        run,
        pendingTimers: await tx.pendingTimers(run.id),
        testClock: scope.environment === 'test' ? await tx.getTestClock(scope.account) : undefined,
      };
    },

    async writeTransition(write: TransitionWrite): Promise<TransitionWritten> {
      assertTransitionWrite(write);
      const { scope, run } = write;
      // Checked before anything is written, so a lost lease writes nothing either (a run
      // not at the expected version is a version_conflict first, from updateRun).
      if (
        write.settleHandoffJob &&
        (await tx.getRun(scope, run.id))?.version === write.expectedVersion
      )
        await assertHeld(tx, run.id, write.settleHandoffJob);
      if (write.expectedVersion === null) await tx.insertRun(run);
      else await tx.updateRun(run, write.expectedVersion);
      if (write.records.length > 0) await tx.appendRecords(scope, write.records);
      let deliveries = 0;
      if (write.records.length > 0) {
        const events = lifecycleEventRows(run, write.records);
        await tx.insertWebhookEvents(events);
        const endpoints = (await tx.listWebhookEndpoints(scope)).filter(
          (endpoint) => endpoint.status === 'enabled',
        );
        const rows: WebhookDeliveryRow[] = events.flatMap((event) =>
          endpoints
            .filter((endpoint) => matchesEnabledEvents(endpoint.enabled_events, event.type))
            .map((endpoint) => pendingDelivery(event, endpoint.id, write.deliveriesDueAt)),
        );
        if (rows.length > 0) await tx.insertWebhookDeliveries(rows);
        deliveries = rows.length;
      }
      if (write.scheduleTimers.length > 0) await tx.scheduleTimers(write.scheduleTimers);
      if (write.cancelTimers.length > 0) await tx.settleTimers(write.cancelTimers, 'cancelled');
      if (write.firedTimer !== null) await tx.settleTimers([write.firedTimer], 'fired');
      if (write.closeHandoffJobs)
        await tx.closeHandoffJobs(run.id, write.closeHandoffJobs.keep, write.closeHandoffJobs.at);
      if (write.insertHandoffJobs.length > 0) await tx.insertHandoffJobs(write.insertHandoffJobs);
      if (write.settleHandoffJob) await settleHeldJob(tx, write.settleHandoffJob);
      return { deliveries };
    },
  };
}

/** Throws `lease_lost` unless the settled job is still held as expected. */
async function assertHeld(
  tx: TransitionParts,
  runId: string,
  settle: NonNullable<TransitionWrite['settleHandoffJob']>,
): Promise<void> {
  const stored = (await tx.handoffJobsOfRun(runId)).find((job) => job.id === settle.job.id);
  if (
    !stored ||
    stored.lease_owner !== settle.expected.lease_owner ||
    stored.calls !== settle.expected.calls
  )
    throw new StoreError('lease_lost', `handoff job ${settle.job.id} is no longer held`);
}

/** The settled job's next row while its worker holds it; `lease_lost` otherwise. */
async function settleHeldJob(
  tx: TransitionParts,
  settle: NonNullable<TransitionWrite['settleHandoffJob']>,
): Promise<void> {
  try {
    await tx.updateHandoffJob(settle.job, settle.expected);
  } catch (error) {
    if (isStoreError(error, 'version_conflict') || isStoreError(error, 'not_found'))
      throw new StoreError('lease_lost', `handoff job ${settle.job.id} is no longer held`, {
        cause: error,
      });
    throw error;
  }
}
