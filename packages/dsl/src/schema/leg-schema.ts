import { z } from 'zod';
import { expressionSchema, identifierSchema } from './identifiers.js';

/**
 * Sides of a money leg.
 *
 * @example
 * ```ts
 * LEG_DIRECTIONS.includes('debit'); // true
 * ```
 */
export const LEG_DIRECTIONS = ['debit', 'credit'] as const;

/**
 * A money leg: an amount that moves, debit or credit, when its step completes. Its
 * expressions are evaluated in the step expressions' environment once the step has
 * completed (inputs, routes, records and handoffs, including the step's own outcome).
 *
 * @example
 * ```ts
 * legSchema.parse({
 *   id: 'hold_debit', step: 'hold_funds', direction: 'debit',
 *   amount: 'money(inputs.amount)', currency: 'inputs.currency',
 * });
 * ```
 */
export const legSchema = z
  .strictObject({
    id: identifierSchema.meta({ description: 'Unique among the legs.' }),
    step: identifierSchema.meta({
      description:
        'The step (of a stage, or a compensation) whose completion moves the leg: a success or a route choice.',
    }),
    direction: z.enum(LEG_DIRECTIONS).meta({ description: 'debit or credit.' }),
    amount: expressionSchema.meta({
      description:
        'CEL expression of type Money, e.g. money(inputs.amount); evaluated after the step completes.',
    }),
    currency: expressionSchema.meta({
      description:
        'CEL expression of type string, e.g. inputs.currency, or a quoted literal such as "\'EUR\'".',
    }),
    description: z.string().min(1).optional().meta({
      description: 'What the leg is, e.g. which balance it debits or credits.',
    }),
  })
  .meta({
    title: 'Money leg',
    description:
      'An amount debited or credited when a step completes. Per currency, debits should equal credits on every finished run.',
  });

/** Debit or credit. */
export type LegDirection = (typeof LEG_DIRECTIONS)[number];
/** A parsed money leg. */
export type LegDefinition = z.output<typeof legSchema>;
