/**
 * The span and metric attribute names programrun sets (documented in
 * docs/guides/observability.md). They name runs, scenarios, steps, parties, accounts and
 * environments, never inputs, answers' data, secrets or personal data.
 */
export const ATTRIBUTES = {
  runId: 'programrun.run.id',
  runStatus: 'programrun.run.status',
  scenarioId: 'programrun.scenario.id',
  scenarioVersion: 'programrun.scenario.version',
  step: 'programrun.step',
  stage: 'programrun.stage',
  account: 'programrun.account',
  environment: 'programrun.environment',
  party: 'programrun.party',
  signalKind: 'programrun.signal.kind',
  transitionKind: 'programrun.transition.kind',
  outcome: 'programrun.outcome',
  errorClass: 'programrun.error.class',
  call: 'programrun.handoff.call',
  handoffAnswer: 'programrun.handoff.answer',
  handoffSimulated: 'programrun.handoff.simulated',
  timerKind: 'programrun.timer.kind',
  handoffJob: 'programrun.handoff.job',
  idempotencyKey: 'programrun.handoff.idempotency_key',
  endpointId: 'programrun.webhook.endpoint',
  eventType: 'programrun.webhook.event_type',
  deliveryAttempt: 'programrun.webhook.attempt',
  requestId: 'programrun.request_id',
  storeStatements: 'programrun.store.statements',
  storeConflictRetries: 'programrun.store.conflict_retries',
} as const;
