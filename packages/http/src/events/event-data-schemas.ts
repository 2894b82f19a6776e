import { z } from 'zod';
import { ASSET_TRACKS, FINAL_RUN_STATUSES } from '@programrun/dsl';
import type { EventType, LifecycleEventType } from '@programrun/engine';
import { sha256DigestSchema } from '../schemas/common.js';
import {
  approvalDecisionField,
  attemptField,
  durationField,
  faultReasonField,
  identifierField,
  instantField,
  openMapField,
  signalSenderField,
} from './event-fields.js';

const empty = z.strictObject({});

/** A scenario version with its digest, as an upgrade record names each side. */
const scenarioVersion = z.strictObject({
  scenario_id: z.string().meta({ examples: ['bank-payout@v1'] }),
  scenario_digest: sha256DigestSchema,
});

const stepId = (description: string) => identifierField.meta({ description });

const decisionData = z.strictObject({
  decisions: z.array(approvalDecisionField).meta({
    description: "Every decision of this attempt so far, in order, including this event's.",
  }),
  approvals: z.int().min(0).meta({ description: 'Distinct approvers who approved so far.' }),
  quorum: z.int().min(1).meta({ description: 'Distinct approvals needed.' }),
  quorum_met: z.boolean().meta({ description: 'Whether `approvals` reached `quorum`.' }),
});

const handoffAnswerData = z.strictObject({
  party: stepId('The appointed party that answered.'),
  reference: z.string().meta({ description: "The partner's own reference for the execution." }),
  data: openMapField.meta({
    description:
      'What the partner sent with its answer (`{}` when nothing). A simulated partner that could not compute its data fails with `{ "error": "simulation.data …" }`.',
  }),
  answered_by: signalSenderField.optional().meta({
    description:
      "Who posted the answer: the credential's actor and id; for a connector's answer `connector:<party>` and the worker's `wkr_…` id. Absent when the test environment's simulated partner answered.",
  }),
});

const endingData = z.strictObject({
  reason: faultReasonField.meta({ description: 'Why the run ended, a stable code.' }),
  message: z.string().nullable().meta({
    description:
      'Detail: the failing rules, the expression error, or the reason given with a cancel; null when none.',
  }),
});

const recordData = (record: z.ZodType<string>) =>
  z.strictObject({
    record: record,
    party: identifierField
      .nullable()
      .meta({ description: 'The party the record is about or from; null when none.' }),
    data: openMapField.meta({
      description: "The record's fields, each the JSON value of its CEL expression.",
    }),
  });

const approvalRequestData = z.strictObject({
  approvers: z
    .array(identifierField)
    .min(1)
    .meta({ description: 'Party ids whose people may decide.' }),
  quorum: z.int().min(1).meta({ description: 'Distinct approvals needed.' }),
  maker_checker: z.boolean().meta({
    description:
      'Approvers must differ from everyone who approved an earlier step; always false for a review.',
  }),
  expires: durationField.meta({ description: 'How long the approval stays open.' }),
  review: z.literal(true).optional().meta({
    description: 'Present (true) when this is the review of a check step whose policy said review.',
  }),
  attempt: attemptField,
  deadline: instantField.meta({ description: 'When the approval expires: now plus `expires`.' }),
});

const lifecycleDataSchemas = {
  'program_run.created': z.strictObject({
    scenario_id: z
      .string()
      .meta({ description: 'The scenario and version.', examples: ['wallet-delivery@v1'] }),
    scenario_digest: sha256DigestSchema.meta({ description: "Digest of the scenario's text." }),
    environment: z.enum(['test', 'live']),
    asset_track: z.enum(ASSET_TRACKS).meta({ description: "The scenario's asset track." }),
    inputs_digest: sha256DigestSchema.meta({
      description: 'Digest of the RFC 8785 canonical JSON of the validated inputs.',
    }),
    session_id: z.string().nullable().meta({ description: 'The session given at creation.' }),
    source_path: z.string().nullable().meta({ description: 'The source path given at creation.' }),
  }),
  'program_run.suspended': z.strictObject({
    reason: z.literal('issuer_activation_required'),
    asset_track: z
      .literal('restricted')
      .meta({ description: 'Only live runs of restricted scenarios are held.' }),
    scenario: z
      .string()
      .meta({ description: 'Scenario name without version.', examples: ['reserve-usd-cycle'] }),
  }),
  'program_run.resumed': z.strictObject({
    reason: z.literal('issuer_activation'),
    reference: z.string().meta({ description: "The issuer's reference of the activation." }),
  }),
  'program_run.stage.started': empty,
  'program_run.stage.completed': empty,
  'program_run.stage.rewound': z.strictObject({
    to: stepId('The earlier stage the flow jumped back to.'),
  }),
  'program_run.step.skipped': z.strictObject({
    when: z.string().meta({ description: "The step's CEL condition, which was false." }),
  }),
  'program_run.step.exhausted': z.strictObject({
    max_attempts: z.int().min(1).max(100).meta({ description: "The step's max_attempts." }),
  }),
  'program_run.policy.evaluated': z.strictObject({
    decision: z.enum(['allow', 'review', 'deny']).meta({
      description:
        '`deny` when a deny rule failed or any rule errored, else `review` when a review rule failed, else `allow`.',
    }),
    rules: z
      .array(
        z.strictObject({
          id: stepId('The policy rule.'),
          outcome: z.enum(['pass', 'fail', 'error']),
          effect: z.enum(['deny', 'review']).meta({ description: 'What a failure of it means.' }),
          message: z.string().nullable().meta({
            description:
              "The rule's description when it failed, the expression error when it errored, else null.",
          }),
        }),
      )
      .meta({ description: "Each of the check's rules, in the order the step lists them." }),
  }),
  'program_run.approval.requested': approvalRequestData,
  'program_run.approval.recorded': decisionData,
  'program_run.approval.granted': decisionData,
  'program_run.approval.rejected': decisionData,
  'program_run.approval.expired': z.strictObject({
    expires: durationField.meta({ description: 'How long the approval was open.' }),
    review: z.literal(true).optional().meta({ description: 'Present when a review expired.' }),
  }),
  'program_run.handoff.requested': z.strictObject({
    party: stepId('The appointed party asked to execute.'),
    action: z
      .string()
      .regex(/^[a-z][a-z0-9_.]*$/)
      .meta({ description: 'What the partner is asked to do.', examples: ['payout.execute'] }),
    attempt: attemptField,
    timeout: durationField.meta({ description: 'How long the partner has to answer.' }),
    compensation: z
      .boolean()
      .meta({ description: 'True when this handoff undoes an earlier step (a compensation).' }),
    request: openMapField.meta({
      description: "The fields sent to the partner: each the JSON value of the step's CEL.",
    }),
    idempotency_key: z
      .string()
      .regex(/^pik_[0-9a-f]{32}$/)
      .meta({
        description:
          '`pik_` and 32 hex digits of sha-256 over `<run id>:<step>:<attempt>`: the partner deduplicates with it and names the attempt it answers.',
      }),
    deadline: instantField.meta({ description: 'When the handoff times out: now plus `timeout`.' }),
  }),
  'program_run.handoff.attempted': z.strictObject({
    party: stepId('The appointed party whose connector was called.'),
    attempt: attemptField,
    call: z.int().min(1).meta({
      description:
        'Which call of this handoff it was: 1, then 2, 3… on retries (a call lost in a crash counts).',
    }),
    outcome: z.enum(['answered', 'accepted', 'retrying', 'exhausted', 'failed']).meta({
      description:
        '`answered`: the partner answered (its outcome follows); `accepted`: it will call back; `retrying`: a transient failure, called again at `next_attempt_at`; `exhausted`: a transient failure with no retry before the deadline (the step times out); `failed`: a permanent failure, applied as `handoff.failed`.',
    }),
    error_class: z
      .string()
      .nullable()
      .meta({
        description:
          'What failed (`timeout`, `connection`, `http_5xx`, `rate_limited`, `invalid_answer`, `thrown`, `http_4xx`, …); null when the call succeeded.',
        examples: ['http_5xx'],
      }),
    status: z.int().nullable().meta({
      description: "The partner's HTTP status, when the connector got one; null otherwise.",
    }),
    duration_ms: z.int().min(0).meta({ description: 'How long the call took, in milliseconds.' }),
    idempotency_key: z
      .string()
      .regex(/^pik_[0-9a-f]{32}$/)
      .meta({ description: "The handoff's `pik_` key: the same on every call." }),
    next_attempt_at: instantField
      .nullable()
      .meta({ description: 'When the next call is due (`retrying`); null otherwise.' }),
  }),
  'program_run.handoff.confirmed': handoffAnswerData,
  'program_run.handoff.rejected': handoffAnswerData,
  'program_run.handoff.failed': handoffAnswerData,
  'program_run.handoff.timed_out': z.strictObject({
    party: stepId('The appointed party that did not answer.'),
    timeout: durationField.meta({ description: 'How long it had.' }),
  }),
  'program_run.route.selected': z.strictObject({
    selected: identifierField
      .nullable()
      .meta({ description: 'The chosen alternative; null when none was eligible.' }),
    reason: z.string().nullable().meta({ description: "The chosen alternative's reason." }),
    alternatives: z
      .array(
        z.strictObject({
          id: stepId('The alternative.'),
          eligible: z.boolean().meta({ description: 'Whether its condition held.' }),
          reason: z.string().meta({ description: 'Why it is chosen when eligible.' }),
          error: z
            .string()
            .nullable()
            .meta({ description: 'The expression error when its condition failed to evaluate.' }),
        }),
      )
      .min(2)
      .meta({ description: 'Every alternative considered, in order; the first eligible wins.' }),
  }),
  'program_run.delivery.recorded': recordData(z.literal('delivery_object')),
  'program_run.record.created': recordData(
    z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .meta({ description: 'What was recorded.', examples: ['reserve_match'] }),
  ),
  'program_run.wait.started': z.strictObject({
    duration: durationField.meta({ description: "The wait step's duration." }),
    attempt: attemptField,
    fires_at: instantField.meta({ description: 'When the timer fires: now plus `duration`.' }),
  }),
  'program_run.wait.completed': empty,
  'program_run.compensation.started': z.strictObject({
    reason: faultReasonField.meta({
      description: 'Why the run compensates (the failure, or `cancel_requested`).',
    }),
    message: z.string().optional().meta({
      description: 'Only for a cancel of a waiting step: the reason given with the cancel.',
    }),
    pending: z
      .array(identifierField)
      .meta({ description: 'Compensation steps to run, in the order they will run.' }),
  }),
  'program_run.compensation.completed': empty,
  'program_run.compensation.discharged': z.strictObject({
    discharged: z.array(identifierField).meta({
      description:
        'Compensation steps registered so far that no longer apply (newest first); possibly none.',
    }),
  }),
  'program_run.completed': empty,
  'program_run.faulted': endingData,
  'program_run.cancelled': endingData,
  'program_run.upgraded': z.strictObject({
    from: scenarioVersion.meta({ description: 'The version the run was on.' }),
    to: scenarioVersion.meta({ description: 'The version the run is on from now on.' }),
    state: identifierField.meta({ description: 'The step of the old version the run waited at.' }),
    maps_to: identifierField.meta({ description: 'The step of the new version it waits at now.' }),
    renames: z.record(identifierField, identifierField).meta({
      description: 'Old step id → new step id, for steps that only changed name (the migration’s).',
    }),
    party_renames: z.record(identifierField, identifierField).meta({
      description:
        'Old party id → new party id, for partners that only changed name (the migration’s); a handoff waiting on a renamed party is called through the new one’s connector.',
    }),
    deadlines_moved: z
      .record(
        identifierField,
        z.strictObject({
          from: instantField.meta({ description: 'The deadline the run had on the old version.' }),
          to: instantField.meta({
            description:
              "The new version's: when the wait started plus its new duration (the migration's `deadlines: new_version`).",
          }),
          calls_resumed: z.literal(true).optional().meta({
            description:
              'Present when the handoff had given up calling its partner (no retry fitted before the old deadline) and the upgrade queued its call again for the new one.',
          }),
        }),
      )
      .meta({
        description:
          'The step whose deadline (expiry, timeout or wait) the upgrade moved, with the deadline before and after; empty when none moved.',
      }),
    inputs_given: openMapField.meta({
      description:
        'The inputs the migration gave the run (its `context.inputs`, each evaluated on the run as the old version had it), which the new version reads besides those the run was created with; empty when it gave none.',
    }),
    migration_digest: sha256DigestSchema.nullable().meta({
      description: "The sha-256 of the migration file's text; null when the upgrade had none.",
    }),
    upgraded_by: z.string().meta({
      description:
        'Who moved the run: the actor `engine.upgradeRuns` was given (`programrun upgrade apply --actor`), e.g. `ops:alice`.',
    }),
  }),
  'program_run.evidence.sealed': z.strictObject({
    status: z.enum(FINAL_RUN_STATUSES).meta({ description: 'The final status.' }),
    records: z
      .int()
      .min(1)
      .meta({ description: "How many records the run's history holds, this one included." }),
  }),
} satisfies Record<LifecycleEventType, z.ZodType>;

/**
 * The `data` schema of every event type: exactly what the engine writes (closed objects
 * except partner- and scenario-provided maps).
 *
 * @example
 * ```ts
 * EVENT_DATA_SCHEMAS['program_run.wait.started'].parse(event.data).fires_at;
 * ```
 */
export const EVENT_DATA_SCHEMAS = {
  ...lifecycleDataSchemas,
  'webhook_endpoint.disabled': z.strictObject({
    endpoint: z.strictObject({
      id: z.string().meta({ description: 'The webhook endpoint.' }),
      url: z.url().meta({ description: 'Its URL.' }),
    }),
    reason: z.enum(['gone', 'consistent_failure']).meta({
      description:
        '`gone`: the endpoint answered 410 Gone; `consistent_failure`: deliveries kept failing.',
    }),
    status: z.int().nullable().meta({
      description: 'The HTTP status of the last failed delivery; null when it got no response.',
    }),
    failing_since: instantField
      .nullable()
      .meta({ description: 'When deliveries started failing; null when disabled at once (gone).' }),
    disabled_at: instantField.meta({ description: 'When the endpoint was disabled.' }),
  }),
} satisfies Record<EventType, z.ZodType>;

/**
 * The `data` of events of one type.
 *
 * @example
 * ```ts
 * const data: EventData<'program_run.handoff.requested'> = EVENT_DATA_SCHEMAS['program_run.handoff.requested'].parse(event.data);
 * ```
 */
export type EventData<Type extends EventType> = z.output<(typeof EVENT_DATA_SCHEMAS)[Type]>;
