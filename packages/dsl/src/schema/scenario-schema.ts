import { z } from 'zod';
import { durationSchema, expressionSchema, identifierSchema } from './identifiers.js';
import { invariantSchema } from './invariant-schema.js';
import { holdSchema } from './hold-schema.js';
import { legSchema } from './leg-schema.js';
import { partySchema } from './party-schema.js';
import { compensationStepSchema, stepSchema } from './step-schema.js';

/**
 * Workflow families of the specification.
 *
 * @example
 * ```ts
 * FAMILIES.includes('bank_payout'); // true
 * ```
 */
export const FAMILIES = [
  'wallet_delivery',
  'bank_payout',
  'treasury_conversion',
  'bridge_routing',
  'asset_servicing',
] as const;

/**
 * Asset tracks, kept distinct.
 *
 * @example
 * ```ts
 * ASSET_TRACKS.includes('restricted'); // true
 * ```
 */
export const ASSET_TRACKS = ['public_demo', 'restricted', 'production_placeholder'] as const;

/** A policy rule in CEL. */
export const policyRuleSchema = z.strictObject({
  id: identifierSchema,
  description: z.string().min(1),
  when: expressionSchema.meta({ description: 'CEL boolean that must hold for the rule to pass.' }),
  otherwise: z
    .enum(['deny', 'review'])
    .meta({ description: 'Outcome when the rule fails: deny blocks, review waits for reviewers.' }),
});

/** A control the run must satisfy (e.g. Shariah screening), shown in the policy state. */
export const controlSchema = z.strictObject({
  id: identifierSchema,
  title: z.string().min(1),
  description: z.string().optional(),
  category: z.enum(['shariah', 'compliance', 'risk', 'operational', 'regulatory']),
  step: identifierSchema.meta({ description: 'The step whose success satisfies the control.' }),
});

/** One stage (operating chapter) of the run. */
export const stageSchema = z.strictObject({
  id: identifierSchema,
  title: z.string().min(1),
  description: z.string().optional(),
  steps: z.array(stepSchema).min(1),
});

/**
 * The scenario format: one YAML file per published version.
 *
 * @example
 * ```ts
 * const definition = scenarioSchema.parse(yaml.parse(text)); // throws ZodError; prefer loadScenario
 * ```
 */
export const scenarioSchema = z
  .strictObject({
    scenario: z
      .string()
      .regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'must be kebab-case, e.g. qr-merchant-settlement')
      .meta({ description: 'Scenario name; the id is <scenario>@<version>.' }),
    version: z.string().regex(/^v[1-9][0-9]*$/, 'must be v1, v2, …'),
    title: z.string().min(1),
    summary: z.string().min(1),
    family: z.enum(FAMILIES),
    asset_track: z.enum(ASSET_TRACKS),
    duration: z
      .strictObject({
        min: durationSchema,
        max: durationSchema,
        calendar: z.enum(['business', 'calendar']).default('calendar'),
      })
      .optional()
      .meta({ description: 'Indicated duration of a run.' }),
    inputs: z.record(z.string(), z.unknown()).meta({
      description: 'JSON Schema (draft 2020-12) of the run inputs; money is a decimal string.',
    }),
    example_inputs: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Valid inputs used by docs, tests and the catalogue.' }),
    parties: z.record(identifierSchema, partySchema),
    policy: z.array(policyRuleSchema).default([]),
    controls: z.array(controlSchema).default([]),
    invariants: z.array(invariantSchema).default([]),
    stages: z.array(stageSchema).min(1),
    compensations: z.array(compensationStepSchema).default([]),
    legs: z.array(legSchema).default([]).meta({
      description:
        'Money legs: what each step moves, debit or credit, when it completes (compensations included).',
    }),
    holds: z.array(holdSchema).default([]).meta({
      description:
        'Funds a step reserves, which every path not ending faulted must release or settle (proven at load).',
    }),
  })
  .meta({
    title: 'programrun scenario',
    description: 'A versioned money-movement workflow compiled into a pure XState v5 machine.',
  });

export type PolicyRule = z.output<typeof policyRuleSchema>;
export type ControlDefinition = z.output<typeof controlSchema>;
export type StageDefinition = z.output<typeof stageSchema>;
/** A parsed, defaulted scenario definition. */
export type ScenarioDefinition = z.output<typeof scenarioSchema>;
/** Workflow family. */
export type Family = (typeof FAMILIES)[number];
/** Asset track. */
export type AssetTrack = (typeof ASSET_TRACKS)[number];
