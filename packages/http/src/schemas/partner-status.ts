import { z } from 'zod';
import { listSchema, timestampSchema } from './common.js';

const countOf = (description: string) => z.int().min(0).meta({ description });

const limitOf = (description: string) => z.number().positive().nullable().meta({ description });

const breakerSchema = z
  .object({
    status: z.enum(['closed', 'open', 'half_open']).meta({
      description:
        '`closed`: calls flow; `open`: after consecutive failures, nothing is called until `retry_at`; `half_open`: one probe call decides.',
    }),
    consecutive_failures: countOf('Transient failures in a row since the last success.'),
    retry_at: timestampSchema
      .nullable()
      .meta({ description: 'When an open breaker lets a probe through; null unless open.' }),
  })
  .meta({
    id: 'PartnerBreaker',
    description: "The party's circuit breaker on this host (each host keeps its own).",
  });

/**
 * One party the engine hands off to through a connector: its limits and breaker (the
 * party's, shared by every account) and the caller's own jobs (counted for the key's
 * account and environment only).
 *
 * @example
 * ```ts
 * partnerStatusSchema.parse(page.data[0]).breaker.status; // 'closed'
 * ```
 */
export const partnerStatusSchema = z
  .object({
    party: z.string().meta({ examples: ['payout_bank'] }),
    connector: z.enum(['custom', 'sandbox']).meta({
      description:
        "`custom`: the host's connector for live handoffs (a function or the HTTP connector); `sandbox`: the simulated counterparty of the test environment.",
    }),
    concurrency: limitOf('Calls in flight at most, across every host sharing the store.'),
    rate: limitOf('Calls per second at most, per host.'),
    max_per_account: limitOf('Calls in flight at most for one account (fairness).'),
    in_flight: countOf("The account's calls in flight now."),
    queued: countOf("The account's jobs waiting for a call (due, or retrying later)."),
    accepted: countOf("The account's jobs the partner accepted (it answers with a callback)."),
    exhausted: countOf(
      "The account's jobs with no retry left before their step's deadline (the step's timeout decides).",
    ),
    next_attempt_at: timestampSchema
      .nullable()
      .meta({ description: "When the account's next queued call is due; null when none." }),
    breaker: breakerSchema,
    posture: z.enum(['ok', 'degraded']).meta({
      description:
        '`degraded` while the breaker is not closed: runs waiting on this party show it in `posture.parties`.',
    }),
  })
  .meta({
    id: 'PartnerStatus',
    description:
      'A party handoffs go to through a connector: limits, breaker and the account’s own jobs.',
  });

/**
 * `GET /v1/partners`: every party with a connector in the key's environment.
 *
 * @example
 * ```ts
 * partnerStatusListSchema.parse(await (await fetch(`${base}/v1/partners`, { headers })).json());
 * ```
 */
export const partnerStatusListSchema = listSchema(
  partnerStatusSchema,
  z.literal('/v1/partners'),
).meta({ id: 'PartnerStatusList', description: 'The parties with a connector, by party id.' });
