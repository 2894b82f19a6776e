import { z } from 'zod';
import { durationSchema } from './identifiers.js';

/**
 * Functions a party performs; appointed parties execute the regulated ones.
 *
 * @example
 * ```ts
 * PARTY_ROLES.includes('paying_agent'); // true
 * ```
 */
export const PARTY_ROLES = [
  'banking',
  'custody',
  'settlement',
  'conversion',
  'fx',
  'payout',
  'registrar',
  'paying_agent',
  'issuer',
  'reserve_custody',
  'scheme',
  'bridge',
  'market_maker',
  'trustee',
  'shariah_board',
  'compliance',
  'operations',
  'treasury',
  'customer',
  'merchant',
  'obligor',
  'acquirer',
  'servicing_agent',
  'risk',
] as const;

/** The role a party plays in a run. */
export const partyRoleSchema = z.enum(PARTY_ROLES);

/**
 * `appointed`: a partner that executes regulated steps (bank, custodian, FX…);
 * `operator`: the platform's own teams (operations, compliance, Shariah board);
 * `customer`: the payer, merchant or investor.
 */
export const partyKindSchema = z.enum(['appointed', 'operator', 'customer']);

/** One named party of the scenario. */
export const partySchema = z
  .strictObject({
    name: z.string().min(1).meta({ description: 'Display name, e.g. "Payer home bank".' }),
    role: partyRoleSchema,
    kind: partyKindSchema.default('appointed'),
    description: z.string().optional(),
    availability: z.enum(['live', 'not_live']).default('live').meta({
      description:
        'Whether the partner stage is live; not_live parties show as not_live in live posture ("once those stages are live").',
    }),
    simulation: z
      .strictObject({
        latency: durationSchema.meta({
          description:
            'How long the simulated counterparty takes to confirm in the test environment.',
        }),
      })
      .optional(),
  })
  .meta({ description: 'An operating party: who they are and which function they perform.' });

/** Parsed party definition. */
export type PartyDefinition = z.output<typeof partySchema>;
