/**
 * Every lifecycle record type with what it means: the catalogue webhook subscribers,
 * `GET …/events` readers and auditors rely on. Types are `program_run.<name>`.
 *
 * @example
 * ```ts
 * LIFECYCLE_EVENT_TYPES['program_run.completed']; // 'The run reached its result.'
 * ```
 */
export const LIFECYCLE_EVENT_TYPES = {
  'program_run.created':
    'The run was created; data holds the scenario digest, environment, track and inputs digest.',
  'program_run.suspended':
    'A live run of a restricted scenario was held in intake: its account has no issuer activation yet. No step runs until it has.',
  'program_run.resumed':
    "The account's issuer activation arrived: the suspended run leaves intake and its first stage starts.",
  'program_run.stage.started': 'A stage (operating chapter) started.',
  'program_run.stage.completed': 'Every step of a stage finished and the run moved on.',
  'program_run.stage.rewound':
    'The flow jumped back to an earlier stage (a re-quote or repair); this stage will run again.',
  'program_run.step.skipped': "A step's `when` condition was false.",
  'program_run.step.exhausted':
    'A step was entered more than its max_attempts; its on_exhausted path runs.',
  'program_run.policy.evaluated':
    'A check step evaluated its policy rules: decision and each rule outcome.',
  'program_run.approval.requested':
    'An approval (or a policy review) is waiting for decisions, with its deadline.',
  'program_run.approval.recorded':
    'A decision was recorded (with the deciding actor and credential); quorum not reached yet.',
  'program_run.approval.granted':
    'Quorum of distinct actors was reached; the approval step succeeded.',
  'program_run.approval.rejected': 'An approver rejected; the failure path runs.',
  'program_run.approval.expired': 'The approval expired before quorum.',
  'program_run.handoff.requested':
    'An appointed party was asked to execute a step, with a deterministic idempotency key.',
  'program_run.handoff.attempted':
    "A live connector called the partner once (the sandbox's simulated calls are not recorded): call number, outcome (answered, accepted, retrying, exhausted or failed), error class and status, duration and the next call's time, with the handoff's idempotency key.",
  'program_run.handoff.confirmed':
    'The partner confirmed the step (`answered_by` names who posted the answer).',
  'program_run.handoff.rejected': 'The partner rejected the step.',
  'program_run.handoff.failed': 'The partner reported a failure.',
  'program_run.handoff.timed_out': 'The partner did not answer before the timeout.',
  'program_run.route.selected':
    'A route step chose an alternative; every alternative considered and why.',
  'program_run.delivery.recorded': 'A delivery object was recorded.',
  'program_run.record.created':
    'A fact was recorded for evidence (reserve match, corridor package, …).',
  'program_run.wait.started': 'A durable timer started.',
  'program_run.wait.completed': 'A durable timer fired.',
  'program_run.compensation.started': 'Completed steps are being compensated in reverse order.',
  'program_run.compensation.completed': 'Every compensation finished.',
  'program_run.compensation.discharged':
    'A pivot step succeeded: the saga passed its point of no return, and compensations registered so far (possibly none) no longer apply.',
  'program_run.completed': 'The run reached its result.',
  'program_run.faulted': 'The run ended in a fault: data says which step and why.',
  'program_run.cancelled': 'The run was cancelled.',
  'program_run.upgraded':
    "The run moved to a new version of its scenario (`engine.upgradeRuns`) while it waited: data holds both versions with their digests, the step it waited at and the one it waits at now, the renamed steps and the migration file's digest. Records after it follow the new version.",
  'program_run.evidence.sealed':
    'The run reached a final status: its history is complete and this is its last record; evidence exported from now on is final.',
} as const;

/** A lifecycle record type. */
export type LifecycleEventType = keyof typeof LIFECYCLE_EVENT_TYPES;

/**
 * The account-level event types (about no run), with what they mean.
 *
 * @example
 * ```ts
 * Object.keys(ACCOUNT_EVENT_TYPES); // ['webhook_endpoint.disabled']
 * ```
 */
export const ACCOUNT_EVENT_TYPES = {
  'webhook_endpoint.disabled':
    "A webhook endpoint was disabled: it answered 410 Gone, or every attempt failed for a whole retry schedule. Nothing is delivered to it until it is enabled again; this event goes to the account's other endpoints.",
} as const;

/** An event type: a lifecycle record type or an account-level type. */
export type EventType = LifecycleEventType | keyof typeof ACCOUNT_EVENT_TYPES;

/**
 * Every event type with what it means, the one catalogue webhook subscriptions, the
 * events API and the reference documentation read: the lifecycle record types
 * (`program_run.*`), then the account-level ones.
 *
 * @example
 * ```ts
 * EVENT_TYPE_MEANINGS['program_run.completed']; // 'The run reached its result.'
 * ```
 */
export const EVENT_TYPE_MEANINGS: Readonly<Record<EventType, string>> = {
  ...LIFECYCLE_EVENT_TYPES,
  ...ACCOUNT_EVENT_TYPES,
};

/**
 * Every event type, lifecycle types first, in catalogue order.
 *
 * @example
 * ```ts
 * EVENT_TYPES.at(-1); // 'webhook_endpoint.disabled'
 * ```
 */
export const EVENT_TYPES = Object.keys(EVENT_TYPE_MEANINGS) as [EventType, ...EventType[]];

/**
 * The record type of a machine fact: `run.completed` → `program_run.completed`,
 * `stage.started` → `program_run.stage.started`.
 *
 * @example
 * ```ts
 * recordTypeOf('handoff.requested'); // 'program_run.handoff.requested'
 * ```
 */
export function recordTypeOf(factType: string): string {
  return `program_run.${factType.startsWith('run.') ? factType.slice(4) : factType}`;
}
