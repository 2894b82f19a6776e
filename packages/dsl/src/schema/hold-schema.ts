import { z } from 'zod';
import { identifierSchema } from './identifiers.js';

const stepList = (description: string) =>
  z.array(identifierSchema).default([]).meta({ description });

/**
 * A hold: funds one step reserves (a hold on a balance, a debit into a clearing account)
 * that must be given back or paid out on every path that does not end `faulted`.
 *
 * @example
 * ```ts
 * holdSchema.parse({
 *   id: 'payout_hold', description: 'The payout amount held on the client balance.',
 *   placed_by: 'hold_funds', released_by: ['release_hold'], settled_by: ['confirm_credit'],
 * });
 * ```
 */
export const holdSchema = z
  .strictObject({
    id: identifierSchema.meta({ description: 'Unique among the holds.' }),
    description: z
      .string()
      .min(1)
      .meta({ description: 'What is held, in words, shown in problems.' }),
    placed_by: identifierSchema.meta({
      description: 'The step of a stage whose completion reserves the funds.',
    }),
    released_by: stepList(
      'Steps or compensations whose completion gives the funds back (e.g. a release or re-credit).',
    ),
    settled_by: stepList(
      'Steps whose completion pays the held funds out (e.g. the confirmed payout).',
    ),
  })
  .meta({
    title: 'Hold',
    description:
      'Funds a step reserves: once placed_by completes, every path ending complete or cancelled (a cancel request included) completes a released_by or settled_by step, or has a released_by compensation registered and not discharged. Paths ending faulted may keep the hold for people to trace.',
  });

/** A parsed hold. */
export type HoldDefinition = z.output<typeof holdSchema>;
