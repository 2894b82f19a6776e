import { z } from 'zod';
import { identifierSchema } from '../schema/identifiers.js';

const versionSchema = z
  .string()
  .regex(/^v[1-9][0-9]*$/, 'must be a version such as v1')
  .meta({ description: 'A scenario version such as `v1`.' });

/**
 * A migration file, `<scenario>@<from>-to-<to>.yaml`: how runs waiting in the old version
 * map onto the new one. Every field but the three names is optional: a step that keeps its
 * id maps to itself.
 *
 * @example
 * ```ts
 * migrationSchema.parse({ scenario: 'bank-payout', from: 'v1', to: 'v2', stay: ['execute_payout'] });
 * migrationSchema.parse({ scenario: 'bank-payout', from: 'v1', to: 'v2', context: { inputs: { purpose_code: "'SUPP'" } } });
 * ```
 */
export const migrationSchema = z
  .strictObject({
    scenario: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,62}$/, 'must be a kebab-case scenario name')
      .meta({ description: 'The scenario name, without the version.' }),
    from: versionSchema,
    to: versionSchema,
    description: z.string().min(1).optional().meta({ description: 'What changed, in words.' }),
    renames: z
      .strictObject({
        steps: z
          .record(identifierSchema, identifierSchema)
          .default({})
          .meta({ description: 'Old step id → new step id, for steps that only changed name.' }),
        parties: z.record(identifierSchema, identifierSchema).default({}).meta({
          description:
            'Old party id → new party id, for a partner that only changed name: a handoff waiting on it waits on the renamed party, and its queued call goes to that party’s connector.',
        }),
      })
      .default({ steps: {}, parties: {} })
      .meta({ description: 'Ids that changed without changing what they are.' }),
    states: z.record(identifierSchema, identifierSchema).default({}).meta({
      description:
        'Old waiting step → the new step a run waiting there waits at instead (when it is not the same or the renamed step).',
    }),
    stay: z.array(identifierSchema).default([]).meta({
      description:
        'Old waiting steps whose runs stay on the old version and finish there (they are not upgraded).',
    }),
    deadlines: z
      .record(identifierSchema, z.enum(['keep', 'new_version']))
      .default({})
      .meta({
        description:
          "Old waiting step → `new_version`: a run waiting there gets the new version's expiry, timeout or wait, counted from when it started waiting (it may only grow); `keep` (the default) keeps its deadline.",
      }),
    context: z
      .strictObject({
        inputs: z.record(identifierSchema, z.string().min(1)).default({}).meta({
          description:
            'New input field → a CEL expression over the old run (`inputs`, `records`, `handoffs`, `routes`, `environment`), evaluated when each run moves: inputs the new version needs that runs of the old one were not given.',
        }),
      })
      .default({ inputs: {} })
      .meta({
        description:
          "What moved runs carry besides what they did: only inputs can be set (the rest of a run's context is what its steps did).",
      }),
  })
  .meta({
    title: 'Scenario migration',
    description: 'How runs of one version of a scenario move to the next.',
  });

/** A parsed migration file. */
export type MigrationDefinition = z.output<typeof migrationSchema>;

const MIGRATION_FILE = /^[a-z][a-z0-9-]{0,62}@v[1-9][0-9]*-to-v[1-9][0-9]*\.yaml$/;

/**
 * Whether a file name is a migration (`<scenario>@v1-to-v2.yaml`) rather than a scenario:
 * directory loaders skip these, so a migration can sit beside the scenarios it moves.
 *
 * @example
 * ```ts
 * isMigrationFileName('bank-payout@v1-to-v2.yaml'); // true
 * isMigrationFileName('bank-payout@v2.yaml'); // false
 * ```
 */
export function isMigrationFileName(name: string): boolean {
  return MIGRATION_FILE.test(name);
}
