import type { EventType } from '@programrun/engine';

/**
 * For every event type: which step kinds or situations emit it, and what its `stage` and
 * `step` hold (Markdown, read from the DSL compiler and the engine).
 *
 * @example
 * ```ts
 * EVENT_SOURCES['program_run.wait.started']; // 'A `wait` step, on every entry…'
 * ```
 */
export const EVENT_SOURCES: Readonly<Record<EventType, string>> = {
  'program_run.created':
    'Every run, as its first record (`sequence` 1), when it is created. `stage` and `step` are null.',
  'program_run.suspended':
    'A live run of a `restricted` scenario created while its account has no issuer activation, right after `created`. Test runs never suspend. `stage` and `step` are null.',
  'program_run.resumed':
    "The account's issuer activation for the scenario arrives while the run is suspended; the run's first `stage.started` follows. `stage` and `step` are null.",
  'program_run.stage.started':
    'Entering a stage: at the start of the run, when the flow moves on to a later stage, and when it jumps back to an earlier one. `stage` is the stage entered, `step` null.',
  'program_run.stage.completed':
    'Leaving a stage forward: the next step is in a later stage, or the run completes (then right before `program_run.completed`). Not emitted when the run faults or is cancelled. `stage` is the stage left, `step` null.',
  'program_run.stage.rewound':
    "A step's `next` or failure path targets a step of an earlier stage (re-quote and repair loops). `stage` is the stage left, `step` null; `stage.started` of `data.to` follows.",
  'program_run.step.skipped':
    'Any step kind (compensations included) whose `when` is false when the step is entered; the flow continues with the following step. `step` is the skipped step; `stage` is null for a compensation step.',
  'program_run.step.exhausted':
    'An `approval`, `handoff` or `wait` step with `max_attempts`, entered once more than allowed; its `on_exhausted` path follows (default `fault`, reason `attempts_exhausted`).',
  'program_run.policy.evaluated':
    'Every `check` step, on entry. `allow` continues, `deny` takes `on_fail` (reason `policy_denied`), `review` waits for reviewers (`approval.requested` with `review: true` follows).',
  'program_run.approval.requested':
    'An `approval` step, on every entry; a `check` step with `review`, when its decision is `review` (`data.review` is true, `maker_checker` false). The run waits until the decision events or `approval.expired`.',
  'program_run.approval.recorded':
    'An eligible approve at an approval (or review) that leaves quorum unmet. The run keeps waiting.',
  'program_run.approval.granted':
    'The eligible approve that reaches quorum: the step succeeds and the flow moves on.',
  'program_run.approval.rejected':
    "Any eligible reject: the step's `on_reject` path follows (a review: the check's `on_fail`), reason `approval_rejected` (`review_rejected`).",
  'program_run.approval.expired':
    "The approval's (or review's) `expires` passes before quorum: `on_timeout` follows, reason `approval_expired` (`review_expired`).",
  'program_run.handoff.requested':
    'A `handoff` step, on every entry, in the main flow or as a compensation (`data.compensation` true, `stage` null). The run waits for the partner; in the test environment the simulated partner answers after its latency.',
  'program_run.handoff.attempted':
    "Each call of a live party's connector (a function or the HTTP connector given to `createEngine({ connectors })`), in the transaction that settles the call: before the answer's `handoff.confirmed`, `rejected` or `failed` when it answered, alone when it was accepted (a callback follows), failed transiently (a retry at `next_attempt_at`, or none left: `exhausted`) or failed permanently (`handoff.failed` follows). The simulated partners of the test environment are not recorded. `stage` and `step` are the handoff's.",
  'program_run.handoff.confirmed':
    'The partner (in test, the simulated partner) confirms the current attempt: the step succeeds and registers its compensation, if it has one.',
  'program_run.handoff.rejected':
    'The partner rejects the current attempt: `on_reject` follows (reason `handoff_rejected`); during compensation the run faults (`compensation_failed`).',
  'program_run.handoff.failed':
    'The partner reports a failure (or the simulated partner cannot compute its data): `on_fail` follows (reason `handoff_failed`); during compensation the run faults (`compensation_failed`).',
  'program_run.handoff.timed_out':
    "The handoff's `timeout` passes without an answer: `on_timeout` follows (reason `handoff_timed_out`).",
  'program_run.route.selected':
    'Every `route` step, on entry, even when no alternative is eligible (`selected` null; `on_no_route` follows, reason `no_route`).',
  'program_run.delivery.recorded': 'A `record` step with `record: delivery_object`.',
  'program_run.record.created':
    'Every other `record` step, in the main flow or as a compensation (`stage` null).',
  'program_run.wait.started':
    'A `wait` step, on every entry: a durable timer starts. The run waits until `wait.completed`.',
  'program_run.wait.completed': "The wait step's timer fires: the step succeeds.",
  'program_run.compensation.started':
    'A failure path targets `compensate` (or `cancel` with compensations registered), or a waiting run with compensations registered is cancelled. `step` is the step that failed or was waiting. The pending compensation steps run next (`handoff.requested` with `compensation: true`, `record.created`…).',
  'program_run.compensation.completed':
    'Every pending compensation finished; `program_run.faulted` or `program_run.cancelled` follows. `stage` and `step` are null.',
  'program_run.compensation.discharged':
    'A step marked `pivot: true` succeeds, whether or not anything was registered.',
  'program_run.completed':
    'The last step succeeds, or a path targets `complete`. `stage` and `step` are null.',
  'program_run.faulted':
    'A path targets `fault` (the default of every failure path), compensation after a `compensate` path finished, an expression error, or a compensation failed. `step` is the step that caused it.',
  'program_run.cancelled':
    'A `cancel` signal while the run waits at an approval, a wait or a review (a handoff refuses it), a path that targets `cancel`, or a cancel of a suspended run. `step` is the step it waited at, when any.',
  'program_run.upgraded':
    '`engine.upgradeRuns` (or `programrun upgrade apply`) moved the waiting run to a new version of its scenario, by a proof of `upgrade check`; every later record follows the new version. `step` is the step it waits at on the new version, `stage` its stage.',
  'program_run.evidence.sealed':
    'The last record of every run that reaches `completed`, `faulted` or `cancelled`, right after that event. `stage` and `step` are null.',
  'webhook_endpoint.disabled':
    'Account-level, not part of any run: a webhook endpoint answered `410 Gone`, or deliveries to it kept failing. `run`, `sequence`, `stage`, `step` and `record_hash` are null.',
};
