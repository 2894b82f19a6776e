import type { EvidenceRecord } from '@programrun/evidence';

/**
 * One lifecycle record: the single source of truth that webhook events, `GET …/events`
 * and evidence bundles are views of; the same shape the evidence bundle carries.
 */
export type LifecycleRecord = EvidenceRecord;
