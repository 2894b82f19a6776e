import { z } from 'zod';
import {
  durationSchema,
  expressionSchema,
  flowTargetSchema,
  identifierSchema,
} from './identifiers.js';

const commonStepFields = {
  id: identifierSchema.meta({ description: 'Unique across every stage, step and compensation.' }),
  title: z.string().min(1),
  description: z.string().optional(),
  when: expressionSchema
    .optional()
    .meta({ description: 'CEL condition; when false the step is skipped (recorded as skipped).' }),
  next: flowTargetSchema.optional().meta({
    description: 'Step to go to on success instead of the following one; `complete` ends the run.',
  }),
  pivot: z.boolean().default(false).meta({
    description:
      "The saga's point of no return: when this step succeeds, compensations registered so far are discharged and later failures no longer undo them.",
  }),
};

/** Bounds how often a re-entered waiting step may run (re-quote and repair loops). */
const attemptFields = {
  max_attempts: z
    .int()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Most times the step may start; one more entry takes on_exhausted.' }),
  on_exhausted: flowTargetSchema.default('fault'),
};

const approversSchema = z
  .array(identifierSchema)
  .min(1)
  .meta({ description: 'Party ids whose people may decide.' });

/** A policy gate: named rules must pass; `review` outcomes wait for reviewers. */
export const checkStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('check'),
  party: identifierSchema.optional(),
  rules: z
    .array(identifierSchema)
    .min(1)
    .meta({ description: 'Policy rule ids evaluated at this gate.' }),
  on_fail: flowTargetSchema.default('fault'),
  review: z
    .strictObject({
      approvers: approversSchema,
      quorum: z.int().min(1).default(1),
      expires: durationSchema,
      on_timeout: flowTargetSchema.default('fault'),
    })
    .optional()
    .meta({
      description: 'Who clears a `review` outcome; required when a rule says otherwise: review.',
    }),
});

/** A human decision with quorum, maker-checker and expiry. */
export const approvalStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('approval'),
  approvers: approversSchema,
  quorum: z.int().min(1).default(1).meta({ description: 'Distinct approvers needed.' }),
  maker_checker: z.boolean().default(false).meta({
    description: 'Approvers must differ from everyone who approved an earlier step (four eyes).',
  }),
  expires: durationSchema,
  on_reject: flowTargetSchema.default('fault'),
  on_timeout: flowTargetSchema.default('fault'),
  ...attemptFields,
});

/** The partner executes; the engine waits for confirmed | rejected | failed. */
export const handoffStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('handoff'),
  party: identifierSchema.meta({ description: 'The appointed party that executes the step.' }),
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_.]*$/, 'must be a dotted lowercase action name such as payout.execute')
    .meta({ description: 'What the partner is asked to do, e.g. payout.execute.' }),
  request: z
    .record(z.string(), expressionSchema)
    .optional()
    .meta({ description: 'Fields sent to the partner, each a CEL expression.' }),
  timeout: durationSchema,
  on_timeout: flowTargetSchema.default('fault'),
  on_reject: flowTargetSchema.default('fault'),
  on_fail: flowTargetSchema.default('fault'),
  ...attemptFields,
  compensate: identifierSchema
    .optional()
    .meta({ description: 'Compensation step (under compensations:) that undoes this one.' }),
  simulation: z
    .strictObject({
      latency: durationSchema
        .optional()
        .meta({ description: "Overrides the party's simulated latency." }),
      data: z
        .record(z.string(), expressionSchema)
        .default({})
        .meta({ description: 'Data the simulated partner confirms with, each a CEL expression.' }),
    })
    .optional()
    .meta({ description: 'How the simulated counterparty answers in the test environment.' }),
});

/** Records a fact for evidence: delivery objects, reserve matches, corridor packages… */
export const recordStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('record'),
  party: identifierSchema.optional(),
  record: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .meta({
      description: 'What is recorded, e.g. delivery_object, reserve_match, corridor_package.',
    }),
  data: z
    .record(z.string(), expressionSchema)
    .meta({ description: 'Fields of the record, each a CEL expression.' }),
});

/** One alternative of a route step. */
export const routeAlternativeSchema = z.strictObject({
  id: identifierSchema,
  title: z.string().optional(),
  when: expressionSchema.meta({
    description: 'CEL condition that makes the alternative eligible.',
  }),
  reason: z
    .string()
    .min(1)
    .meta({ description: 'Why this alternative is chosen when eligible (evidence).' }),
  next: flowTargetSchema.optional(),
});

/** Chooses the first eligible alternative; the choice and its reason go to evidence. */
export const routeStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('route'),
  party: identifierSchema.optional(),
  alternatives: z.array(routeAlternativeSchema).min(2),
  on_no_route: flowTargetSchema.default('fault'),
});

/** A durable timer. */
export const waitStepSchema = z.strictObject({
  ...commonStepFields,
  kind: z.literal('wait'),
  party: identifierSchema.optional(),
  duration: durationSchema,
  ...attemptFields,
});

/** Every step kind (a closed set). */
export const stepSchema = z.discriminatedUnion('kind', [
  checkStepSchema,
  approvalStepSchema,
  handoffStepSchema,
  recordStepSchema,
  routeStepSchema,
  waitStepSchema,
]);

/** Steps allowed under `compensations:`: a partner reversal or a record. */
export const compensationStepSchema = z.discriminatedUnion('kind', [
  handoffStepSchema,
  recordStepSchema,
]);

export type CheckStep = z.output<typeof checkStepSchema>;
export type ApprovalStep = z.output<typeof approvalStepSchema>;
export type HandoffStep = z.output<typeof handoffStepSchema>;
export type RecordStep = z.output<typeof recordStepSchema>;
export type RouteStep = z.output<typeof routeStepSchema>;
export type RouteAlternative = z.output<typeof routeAlternativeSchema>;
export type WaitStep = z.output<typeof waitStepSchema>;
/** A step of any kind. */
export type StepDefinition = z.output<typeof stepSchema>;
/** A step allowed as a compensation. */
export type CompensationStep = z.output<typeof compensationStepSchema>;
/** The closed set of step kinds. */
export type StepKind = StepDefinition['kind'];
