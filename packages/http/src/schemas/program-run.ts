import { z } from 'zod';
import { ASSET_TRACKS } from '@programrun/dsl';
import { RUN_STATUSES } from '@programrun/engine';
import {
  jsonObjectSchema,
  listSchema,
  prefixedString,
  sha256DigestSchema,
  timestampSchema,
} from './common.js';

/**
 * Every status a run can have; `completed`, `faulted` and `cancelled` are final.
 *
 * @example
 * ```ts
 * runStatusSchema.options.includes('waiting'); // true
 * ```
 */
export const runStatusSchema = z.enum(RUN_STATUSES).meta({
  id: 'ProgramRunStatus',
  description:
    '`waiting` whenever `awaiting` is set; `running` only between waits; `suspended` while a live run of a restricted scenario waits for the issuer activation; `completed`, `faulted` and `cancelled` are final.',
});

const handoffJobSchema = z
  .object({
    status: z.enum(['queued', 'accepted', 'exhausted']).meta({
      description:
        '`queued`: a connector call is due at `next_attempt_at` (or in flight); `accepted`: the partner took the request and answers through `POST …/handoffs/{step}`; `exhausted`: no retry fits before the deadline, so the step times out.',
    }),
    attempts: z
      .int()
      .min(0)
      .meta({ description: 'Connector calls made so far, all with the same `pik_…` key.' }),
    next_attempt_at: timestampSchema
      .nullable()
      .meta({ description: 'When the next call is due (`queued`); null otherwise.' }),
    last_error: z
      .object({
        class: z.string().meta({
          description: 'What failed: `timeout`, `connection`, `http_5xx`, `rate_limited`, …',
          examples: ['http_5xx'],
        }),
        message: z.string(),
        status: z
          .int()
          .nullable()
          .meta({ description: "The partner's HTTP status, when it answered." }),
        at: timestampSchema,
      })
      .nullable()
      .meta({
        id: 'HandoffJobError',
        description: 'Why the last call failed; null when none failed.',
      }),
  })
  .meta({
    id: 'HandoffJob',
    description:
      "Where the connector's delivery of a waiting handoff stands (in test, the simulated partner's): present while the run waits on a handoff that has a job, absent when the party has no connector and waits for an answer posted to `POST …/handoffs/{step}`.",
  });

const decisionSchema = z
  .object({
    actor: z.string().meta({
      description:
        'Who decided, as the API authenticated them (the key’s actor, or the host’s principal): what quorum and maker-checker count.',
      examples: ['ops:alice'],
    }),
    decision: z.enum(['approve', 'reject']),
    label: z.string().nullable().meta({
      description:
        'How the decider named themselves (the request’s `approver`); shown to people, never counted.',
    }),
    note: z.string().nullable(),
    at: timestampSchema,
  })
  .meta({ id: 'AwaitingDecision', description: 'One decision on an awaited approval.' });

const awaitingSchema = z
  .object({
    kind: z.enum(['approval', 'handoff', 'timer']),
    step: z.string(),
    deadline: timestampSchema
      .nullable()
      .meta({ description: 'When the step times out, expires or (timers) fires; null when none.' }),
    party: z.string().nullable().meta({ description: 'The party holding the step.' }),
    approvers: z.array(z.string()).nullable().meta({ description: 'Who may decide (approvals).' }),
    quorum: z.int().min(1).nullable(),
    approvals: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'Distinct authenticated actors who approved so far.' }),
    decisions: z.array(decisionSchema).nullable().meta({
      description:
        'The decisions on the awaited step so far, oldest first, for approvals and policy reviews (empty until the first); null for handoffs and timers.',
    }),
    handoff_job: handoffJobSchema.exactOptional(),
  })
  .meta({ id: 'Awaiting', description: 'What a waiting run waits for.' });

const outcomeSchema = z
  .object({
    status: z.enum(['faulted', 'cancelled']),
    step: z.string().nullable(),
    reason: z.string().meta({
      description: 'A stable code, e.g. `policy_denied`, `handoff_timed_out`, `cancel_requested`.',
      examples: ['handoff_rejected'],
    }),
    message: z.string().nullable(),
  })
  .meta({ id: 'RunOutcome', description: 'How a run that did not complete ended.' });

const activationSchema = z
  .object({
    required: z.boolean(),
    status: z.enum(['not_required', 'pending', 'active']),
    reference: z
      .string()
      .nullable()
      .meta({ description: "The issuer's reference of the activation the run started under." }),
    activated_at: timestampSchema.nullable(),
  })
  .meta({
    id: 'ActivationPosture',
    description:
      'Whether the run needs an issuer activation (live runs of restricted scenarios) and whether the account has it.',
  });

const postureSchema = z
  .object({
    environment: z.enum(['test', 'live']),
    asset_track: z.enum(ASSET_TRACKS),
    execution: z.enum(['simulated', 'partner_executed', 'not_executable']),
    activation: activationSchema,
    parties: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          role: z.string().meta({ examples: ['banking'] }),
          kind: z.enum(['appointed', 'operator', 'customer']),
          status: z.enum(['live', 'simulated', 'not_live', 'degraded']).meta({
            description:
              '`degraded`: a live party whose connector’s circuit breaker is open or half-open on this host (calls keep failing; see `GET /v1/partners`).',
          }),
          steps: z.array(z.string()),
          stages: z.array(z.string()),
        })
        .meta({ id: 'PostureParty', description: 'An operating party and what it holds.' }),
    ),
    routes: z.array(
      z
        .object({
          step: z.string(),
          selected: z.string().nullable(),
          reason: z.string().nullable(),
        })
        .meta({ id: 'PostureRoute', description: 'A route choice and why it was made.' }),
    ),
  })
  .meta({ id: 'Posture', description: 'The operating posture of a run.' });

const policySchema = z
  .object({
    decision: z.enum(['allow', 'review', 'deny']),
    rules: z.array(
      z
        .object({
          id: z.string(),
          description: z.string(),
          effect: z.enum(['deny', 'review']),
          outcome: z.enum(['pass', 'fail', 'error', 'pending']),
          review: z.enum(['approved', 'rejected']).nullable(),
          message: z.string().nullable(),
        })
        .meta({ id: 'PolicyRule', description: "A policy rule and this run's outcome of it." }),
    ),
    controls: z.array(
      z
        .object({
          id: z.string(),
          title: z.string(),
          category: z.string(),
          step: z.string(),
          status: z.enum(['pending', 'satisfied', 'failed', 'not_applicable']),
        })
        .meta({ id: 'PolicyControl', description: 'A control (e.g. Shariah screening).' }),
    ),
  })
  .meta({ id: 'PolicyState', description: "The run's policy decision, rules and controls." });

const stageSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(['pending', 'active', 'completed', 'skipped', 'faulted', 'cancelled']),
    started_at: timestampSchema.nullable(),
    completed_at: timestampSchema.nullable(),
  })
  .meta({ id: 'StageProgress', description: 'A stage of the run and its progress.' });

const scenarioVersionSchema = z
  .object({ scenario_id: z.string(), scenario_digest: sha256DigestSchema })
  .meta({ id: 'ScenarioVersion', description: 'A version of a scenario and its digest.' });

const runUpgradeSchema = z
  .object({
    sequence: z.int().min(1).meta({
      description:
        'The sequence of its `program_run.upgraded` record: earlier records are of `from`.',
    }),
    upgraded_at: timestampSchema,
    upgraded_by: z.string().meta({
      description:
        'Who moved the run: the actor the upgrade named (an operator, e.g. `ops:alice`).',
    }),
    from: scenarioVersionSchema,
    to: scenarioVersionSchema,
    state: z.string().meta({ description: 'The step of `from` the run waited at.' }),
    maps_to: z.string().meta({ description: 'The step of `to` it waits at since.' }),
  })
  .meta({
    id: 'RunUpgrade',
    description: 'One move of a waiting run to a new version of its scenario.',
  });

/**
 * The `program_run` object (engine `RunRecord`).
 *
 * @example
 * ```ts
 * programRunSchema.parse(await (await fetch(`${base}/v1/program-runs/${id}`, { headers })).json());
 * ```
 */
export const programRunSchema = z
  .object({
    object: z.literal('program_run'),
    id: prefixedString('prun_').meta({ examples: ['prun_4f1c2d3e4f5a6b7c8d9e0f1a'] }),
    livemode: z.boolean(),
    scenario_id: z.string().meta({ examples: ['wallet-delivery@v1'] }),
    scenario_digest: sha256DigestSchema,
    status: runStatusSchema,
    stage: z.string().nullable().meta({ description: 'The current (or last) stage id.' }),
    awaiting: awaitingSchema.nullable(),
    outcome: outcomeSchema.nullable(),
    session_id: z.string().nullable(),
    source_path: z.string().nullable(),
    inputs: jsonObjectSchema,
    posture: postureSchema,
    policy: policySchema,
    stages: z.array(stageSchema),
    evidence: z
      .object({
        chain_head: sha256DigestSchema
          .nullable()
          .meta({ description: 'The hash of the last lifecycle record.' }),
        exportable: z.boolean().meta({
          description: "Whether a request-access lead is linked to the run's session.",
        }),
      })
      .meta({ id: 'RunEvidence' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
    upgrades: z.array(runUpgradeSchema).optional().meta({
      description:
        'The versions the run moved through (`programrun upgrade apply`), oldest first; present once it was upgraded.',
    }),
  })
  .meta({ id: 'ProgramRun', description: 'A program run.' });

/**
 * `GET /v1/program-runs`: runs, newest first.
 *
 * @example
 * ```ts
 * programRunListSchema.parse(page).data.length; // ≤ limit
 * ```
 */
export const programRunListSchema = listSchema(
  programRunSchema,
  z.literal('/v1/program-runs'),
).meta({ id: 'ProgramRunList', description: 'A page of runs, newest first.' });
