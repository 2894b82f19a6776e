import { z } from 'zod';
import { listSchema } from './common.js';
import { runStatusSchema } from './program-run.js';

const countOf = (description: string) => z.int().min(0).meta({ description });

/**
 * One version of a scenario and the caller's runs of it (engine `ScenarioVersionUsage`):
 * what an operator reads to know when an old version has drained.
 *
 * @example
 * ```ts
 * scenarioVersionUsageSchema.parse(page.data[0]).drained; // true once none is unfinished
 * ```
 */
export const scenarioVersionUsageSchema = z
  .object({
    object: z.literal('scenario_version_usage'),
    scenario_id: z.string().meta({ examples: ['bank-payout@v1'] }),
    loaded: z.boolean().meta({
      description: 'Whether this host loads the version: its runs can go on and new ones name it.',
    }),
    by_status: z.partialRecord(runStatusSchema, z.int().min(1)).meta({
      description:
        "The account's runs of the version by status; statuses no run is in are left out.",
    }),
    total: countOf("The account's runs of the version."),
    unfinished: countOf('Runs not in a final status: while any is left, the version is in use.'),
    drained: z.boolean().meta({
      description:
        'No run is unfinished (moved by `programrun upgrade apply`, or finished): once new runs no longer name it, the version can be unloaded.',
    }),
  })
  .meta({
    id: 'ScenarioVersionUsage',
    description: 'A version of a scenario and how many of the account’s runs are on it.',
  });

/**
 * `GET /v1/scenarios/{id}/versions`: every version of the scenario the host loads or the
 * account has runs of, oldest first.
 *
 * @example
 * ```ts
 * scenarioVersionUsageListSchema.parse(await (await fetch(`${base}/v1/scenarios/bank-payout/versions`, { headers })).json());
 * ```
 */
export const scenarioVersionUsageListSchema = listSchema(
  scenarioVersionUsageSchema,
  z.string().meta({ examples: ['/v1/scenarios/bank-payout/versions'] }),
).meta({
  id: 'ScenarioVersionUsageList',
  description: 'The versions of one scenario, oldest first, with the account’s runs of each.',
});
