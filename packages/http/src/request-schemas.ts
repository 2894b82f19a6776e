import { z } from 'zod';
import { HttpError, type ProblemField } from './errors/http-error.js';

const pointerOf = (path: readonly PropertyKey[]): string =>
  path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * `POST /v1/program-runs` body.
 *
 * @example
 * ```ts
 * createRunBodySchema.safeParse({ scenario_id: 'wallet-delivery@v1', inputs: {} }).success; // true
 * ```
 */
export const createRunBodySchema = z
  .strictObject({
    scenario_id: z
      .string()
      .min(1)
      .max(200)
      .meta({ examples: ['wallet-delivery@v1'] }),
    session_id: z.string().min(1).max(200).nullable().optional(),
    source_path: z.string().min(1).max(2048).nullable().optional(),
    inputs: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CreateProgramRun' });

/**
 * `POST /v1/program-runs/{id}/approvals` body.
 *
 * @example
 * ```ts
 * approvalBodySchema.parse({ step: 'release_approval', decision: 'approve', approver: 'ops:ana' });
 * ```
 */
export const approvalBodySchema = z
  .strictObject({
    step: z.string().min(1).max(100),
    decision: z.enum(['approve', 'reject']),
    approver: z.string().trim().min(1).max(200).optional().meta({
      description:
        'A display name for the decider, recorded as `label`. Never counted: who decided is the authenticated actor of the credential.',
    }),
    note: z.string().max(2000).optional(),
  })
  .meta({ id: 'ApprovalDecision' });

/**
 * `POST /v1/program-runs/{id}/handoffs/{step}` body: the partner callback.
 *
 * @example
 * ```ts
 * handoffBodySchema.parse({ outcome: 'confirmed', reference: 'bank-ref-1' });
 * ```
 */
export const handoffBodySchema = z
  .strictObject({
    outcome: z.enum(['confirmed', 'rejected', 'failed']),
    reference: z.string().min(1).max(200),
    data: z.record(z.string(), z.unknown()).optional(),
    idempotency_key: z
      .string()
      .regex(/^pik_[0-9a-f]{32}$/, 'must be the pik_ key from the handoff request')
      .optional()
      .meta({ description: 'The pik_ key the partner received; ties the answer to its attempt.' }),
  })
  .meta({ id: 'HandoffOutcome' });

/**
 * `POST /v1/program-runs/{id}/cancel` body (may be empty).
 *
 * @example
 * ```ts
 * cancelBodySchema.parse({ reason: 'customer withdrew' });
 * ```
 */
export const cancelBodySchema = z
  .strictObject({ reason: z.string().max(500).optional() })
  .meta({ id: 'CancelRun' });

/** `POST /v1/access-requests` body: a request-access lead for a client session. */
export const accessRequestBodySchema = z
  .strictObject({
    session_id: z.string().trim().min(1).max(200),
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320),
    company: z.string().trim().min(1).max(200),
    use_case: z.string().trim().min(1).max(2000),
  })
  .meta({ id: 'AccessRequest' });

/**
 * `POST /v1/test_helpers/clock/advance` body: `seconds` to move forward, or
 * `to: 'next_timer'`, exactly one of them.
 *
 * @example
 * ```ts
 * clockAdvanceBodySchema.parse({ seconds: 60 });
 * clockAdvanceBodySchema.parse({ to: 'next_timer' });
 * ```
 */
export const clockAdvanceBodySchema = z
  .strictObject({
    seconds: z
      .int()
      .min(1)
      .max(366 * 24 * 3600)
      .optional()
      .meta({ description: 'Seconds to move the clock forward (without `to`).' }),
    to: z.literal('next_timer').optional().meta({
      description:
        '`next_timer`: move the clock to the account’s earliest pending timer (a deadline, a wait, a simulated partner’s answer) and fire what is due then (without `seconds`).',
    }),
  })
  .superRefine((body, context) => {
    if (body.seconds === undefined && body.to === undefined)
      context.addIssue({
        code: 'custom',
        path: ['seconds'],
        message: 'is required unless `to` is given',
        params: { missing: true },
      });
    if (body.seconds !== undefined && body.to !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'cannot be given with `seconds`; send one of them',
      });
  })
  .meta({
    id: 'ClockAdvance',
    // Exactly one of the two, as the refinement checks.
    override: { oneOf: [{ required: ['seconds'] }, { required: ['to'] }] },
  });

function fieldsOf(error: z.ZodError, prefix = ''): ProblemField[] {
  return error.issues.flatMap((issue): ProblemField[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        pointer: `${prefix}${pointerOf([...issue.path, key])}`,
        code: 'unknown_field',
        message: 'is not a field of this request',
      }));
    }
    // A refinement marks a field it requires (one of two, say) with `params.missing`.
    const missing =
      (issue.code === 'invalid_type' && issue.message.includes('received undefined')) ||
      (issue.code === 'custom' && issue.params?.missing === true);
    return [
      {
        pointer: `${prefix}${pointerOf(issue.path)}`,
        code: missing ? 'missing_field' : 'invalid_field',
        message: missing && issue.code !== 'custom' ? 'is required' : issue.message,
      },
    ];
  });
}

/**
 * Parses a body with a schema or throws `invalid_request` naming every bad field.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = fieldsOf(result.error);
  throw new HttpError(
    'invalid_request',
    `The request body is invalid: ${errors.map((field) => `${field.pointer} ${field.message}`).join('; ')}.`,
    { errors },
  );
}

const eventTypePatterns = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(100)
  .meta({
    description:
      'Event types to receive: exact types, prefixes such as `program_run.handoff.*`, or `*` for all.',
    examples: [['program_run.completed', 'program_run.handoff.*']],
  });

/**
 * `POST /v1/webhook-endpoints` body.
 */
export const createWebhookEndpointBodySchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({
        description: 'Where events are POSTed: https in live.',
        examples: ['https://hooks.example.com/programrun'],
      }),
    enabled_events: eventTypePatterns.optional(),
    description: z.string().max(500).nullable().optional(),
  })
  .meta({ id: 'CreateWebhookEndpoint' });

/**
 * `POST /v1/webhook-endpoints/{id}` body: change fields, or enable / disable.
 */
export const updateWebhookEndpointBodySchema = z
  .strictObject({
    url: z.string().min(1).max(2048).optional(),
    enabled_events: eventTypePatterns.optional(),
    description: z.string().max(500).nullable().optional(),
    status: z
      .enum(['enabled', 'disabled'])
      .optional()
      .meta({ description: '`enabled` re-enables a disabled endpoint; `disabled` pauses it.' }),
  })
  .meta({ id: 'UpdateWebhookEndpoint' });

/**
 * `POST /v1/webhook-endpoints/{id}/rotate-secret` body.
 */
export const rotateSecretBodySchema = z
  .strictObject({
    overlap_seconds: z.int().min(0).max(604_800).optional().meta({
      description:
        'How long the previous secret keeps signing (every delivery carries both signatures meanwhile). Default 86400 (24 h), at most 7 days.',
    }),
  })
  .meta({ id: 'RotateWebhookSecret' });

/**
 * `POST /v1/events/{id}/redeliver` body.
 */
export const redeliverBodySchema = z
  .strictObject({
    endpoint: z.string().min(1).max(100).optional().meta({
      description:
        'Only this endpoint; by default every enabled endpoint subscribed to the type or that had the event.',
    }),
  })
  .meta({ id: 'RedeliverEvent' });
