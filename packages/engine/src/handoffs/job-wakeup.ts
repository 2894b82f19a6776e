import { createCommitWakeup, type CommitWakeup } from '../kernel/commit-wakeup.js';

/** Who is told once a transaction that queued a live handoff job commits (the workers). */
export type JobWakeup = CommitWakeup;

/** The job wake-up of an engine. */
export const createJobWakeup = (): JobWakeup => createCommitWakeup();
