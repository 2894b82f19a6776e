import { z } from 'zod';
import { ASSET_TRACKS, FAMILIES, PARTY_ROLES } from '@programrun/dsl';
import { jsonObjectSchema, listSchema, sha256DigestSchema } from './common.js';

const oneOf = (values: readonly string[]) =>
  `One of ${values.map((value) => `\`${value}\``).join(', ')}.`;

/**
 * A catalogue scenario (engine `ScenarioEntry`). The engine types its enumerated fields as
 * plain strings, so they are strings here too, with their values named.
 *
 * @example
 * ```ts
 * scenarioSchema.parse(await (await fetch(`${base}/v1/scenarios/wallet-delivery@v1`, { headers })).json());
 * ```
 */
export const scenarioSchema = z
  .object({
    object: z.literal('scenario'),
    id: z.string().meta({ examples: ['wallet-delivery@v1'] }),
    name: z.string().meta({ examples: ['wallet-delivery'] }),
    version: z.string().meta({ examples: ['v1'] }),
    title: z.string(),
    summary: z.string(),
    family: z.string().meta({ description: oneOf(FAMILIES) }),
    asset_track: z.string().meta({ description: oneOf(ASSET_TRACKS) }),
    digest: sha256DigestSchema,
    duration: z
      .object({
        min: z.string().meta({ examples: ['P3D'] }),
        max: z.string().meta({ examples: ['P10D'] }),
        calendar: z.string().meta({ description: oneOf(['business', 'calendar']) }),
      })
      .nullable()
      .meta({ description: 'Indicated duration (ISO 8601 durations).' }),
    input_schema: jsonObjectSchema.meta({
      description: 'JSON Schema (draft 2020-12) of `inputs`; money is a decimal string.',
    }),
    example_inputs: jsonObjectSchema.meta({ description: 'Valid inputs to start from.' }),
    parties: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        role: z.string().meta({ description: oneOf(PARTY_ROLES) }),
        kind: z.string().meta({ description: oneOf(['appointed', 'operator', 'customer']) }),
        availability: z.string().meta({ description: oneOf(['live', 'not_live']) }),
      }),
    ),
    stages: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        steps: z.array(
          z.object({
            id: z.string(),
            kind: z.string().meta({
              description: oneOf(['check', 'approval', 'handoff', 'record', 'route', 'wait']),
            }),
            title: z.string(),
            party: z.string().nullable(),
          }),
        ),
      }),
    ),
    policy: z.array(
      z.object({
        id: z.string(),
        description: z.string(),
        effect: z.string().meta({ description: oneOf(['deny', 'review']) }),
      }),
    ),
    controls: z.array(
      z.object({ id: z.string(), title: z.string(), category: z.string(), step: z.string() }),
    ),
    invariants: z.array(
      z.discriminatedUnion('kind', [
        z
          .object({
            id: z.string(),
            description: z.string(),
            kind: z.literal('precedence'),
            before: z.array(z.string()),
            then: z.array(z.string()),
          })
          .meta({ description: 'No `then` step starts before every `before` step completed.' }),
        z
          .object({
            id: z.string(),
            description: z.string(),
            kind: z.literal('exclusion'),
            never_together: z.array(z.string()),
          })
          .meta({ description: 'No run completes two of `never_together`.' }),
        z
          .object({
            id: z.string(),
            description: z.string(),
            kind: z.literal('response'),
            after: z.array(z.string()),
            eventually: z.array(z.string()),
          })
          .meta({
            description:
              'A run that completes an `after` step and ends complete completes an `eventually` step later.',
          }),
        z
          .object({
            id: z.string(),
            description: z.string(),
            kind: z.literal('approval'),
            approved: z.array(z.string()),
            by_at_least: z.int(),
            maker_checker: z.boolean(),
          })
          .meta({
            description:
              'Each `approved` step completes only with at least `by_at_least` distinct approvers (none of whom approved an earlier step, with `maker_checker`).',
          }),
      ]),
    ),
  })
  .meta({ id: 'Scenario', description: 'A scenario of the catalogue.' });

/**
 * `GET /v1/scenarios`: the whole catalogue (`has_more` is always false).
 *
 * @example
 * ```ts
 * scenarioListSchema.parse(list).data.map((scenario) => scenario.id);
 * ```
 */
export const scenarioListSchema = listSchema(scenarioSchema, z.literal('/v1/scenarios')).meta({
  id: 'ScenarioList',
  description: 'The scenario catalogue, sorted by id.',
});
