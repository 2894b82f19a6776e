import { context as contextApi, ROOT_CONTEXT } from '@opentelemetry/api';
import { createCommitWakeup, type CommitWakeup } from '../kernel/commit-wakeup.js';

/** Who is told once a transaction that queued a live handoff job commits (the workers). */
export type JobWakeup = CommitWakeup;

/**
 * The job wake-up of an engine. Listeners run in the root context: workers woken by a
 * request's commit work in no request's span (each call's span goes in its own run's
 * trace, never linked to whichever request happened to wake the workers).
 */
export function createJobWakeup(): JobWakeup {
  const wakeup = createCommitWakeup();
  return {
    afterCommit: (transaction) => wakeup.afterCommit(transaction),
    subscribe: (listener) => wakeup.subscribe(() => contextApi.with(ROOT_CONTEXT, listener)),
  };
}
