import { z } from 'zod';
import { identifierSchema } from './identifiers.js';

const commonFields = {
  id: identifierSchema.meta({ description: 'Unique among the invariants.' }),
  description: z
    .string()
    .min(1)
    .meta({ description: 'The rule in words, shown in problems and evidence.' }),
};

const stepList = (minimum: number, description: string) =>
  z.array(identifierSchema).min(minimum).meta({ description });

/**
 * Precedence: no `then` step starts before every `before` step completed.
 *
 * @example
 * ```ts
 * precedenceInvariantSchema.parse({ id: 'held_first', description: 'Hold, then pay.', before: ['hold'], then: ['pay'] });
 * ```
 */
export const precedenceInvariantSchema = z
  .strictObject({
    ...commonFields,
    before: stepList(1, 'Steps that must all have completed…'),
    then: stepList(1, '…before any of these steps starts.'),
  })
  .meta({
    title: 'Precedence invariant',
    description: 'No `then` step starts on any path before every `before` step completed.',
  });

/**
 * Exclusion: no run completes two of the named steps.
 *
 * @example
 * ```ts
 * exclusionInvariantSchema.parse({ id: 'one_way', description: 'Refund or pay.', never_together: ['refund', 'pay'] });
 * ```
 */
export const exclusionInvariantSchema = z
  .strictObject({
    ...commonFields,
    never_together: stepList(2, 'Steps of which no run may complete more than one.'),
  })
  .meta({
    title: 'Exclusion invariant',
    description: 'No path from the first step completes two different steps of `never_together`.',
  });

/**
 * Response: a completed run that completed an `after` step completed an `eventually` step
 * later. Runs ending in fault, compensate or cancel are not bound.
 *
 * @example
 * ```ts
 * responseInvariantSchema.parse({ id: 'reconciled', description: 'Mints are reconciled.', after: ['mint'], eventually: ['reconcile'] });
 * ```
 */
export const responseInvariantSchema = z
  .strictObject({
    ...commonFields,
    after: stepList(1, 'Once any of these steps completes…'),
    eventually: stepList(
      1,
      '…a run that ends `complete` must complete at least one of these steps later on.',
    ),
  })
  .meta({
    title: 'Response invariant',
    description:
      'Every path that completes an `after` step and then reaches `complete` completes an `eventually` step on the way. Paths ending in fault, compensate or cancel are not bound.',
  });

/**
 * Approval: each `approved` step completes only when at least `by_at_least` different
 * people approved it (and, with `maker_checker`, none of whom approved an earlier step).
 *
 * @example
 * ```ts
 * approvalInvariantSchema.parse({ id: 'four_eyes', description: 'Two checkers release.', approved: ['release'], by_at_least: 2, maker_checker: true });
 * ```
 */
export const approvalInvariantSchema = z
  .strictObject({
    ...commonFields,
    approved: stepList(1, 'Approval steps that…'),
    by_at_least: z
      .int()
      .min(1)
      .meta({ description: '…complete only when at least this many different people approved…' }),
    maker_checker: z.boolean().default(false).meta({
      description: '…none of whom approved an earlier step (four eyes on the maker).',
    }),
  })
  .meta({
    title: 'Approval invariant',
    description:
      'Each `approved` step is an approval whose quorum is at least `by_at_least` distinct approvers (kept apart from earlier approvers with `maker_checker`), so no path completes it with fewer.',
  });

/**
 * The fields that make each kind, in the order problems name them.
 *
 * @example
 * ```ts
 * INVARIANT_KIND_FIELDS.response; // ['after', 'eventually']
 * ```
 */
export const INVARIANT_KIND_FIELDS = {
  precedence: ['before', 'then'],
  exclusion: ['never_together'],
  response: ['after', 'eventually'],
  approval: ['approved', 'by_at_least'],
} as const;

/** The kinds of invariant: which fields are present decides the kind. */
export type InvariantKind = keyof typeof INVARIANT_KIND_FIELDS;

const KINDS = Object.keys(INVARIANT_KIND_FIELDS) as InvariantKind[];
const describeKind = (kind: InvariantKind): string =>
  `${kind} (${INVARIANT_KIND_FIELDS[kind].join(' + ')})`;

/**
 * The kinds whose fields appear in a raw (unparsed) invariant mapping.
 */
export function kindsPresent(raw: unknown): InvariantKind[] {
  if (typeof raw !== 'object' || raw === null) return [];
  return KINDS.filter((kind) => INVARIANT_KIND_FIELDS[kind].some((field) => field in raw));
}

/**
 * Why a raw invariant fits no kind, in words: it mixes the fields of two kinds, has
 * none, or lacks a field of the one kind it starts.
 */
export function invariantShapeMessage(raw: unknown): string {
  const kinds = kindsPresent(raw);
  const choices = `${describeKind('precedence')}, ${describeKind('exclusion')}, ${describeKind('response')} or ${describeKind('approval')}`;
  if (kinds.length === 0) return `an invariant needs the fields of one kind: ${choices}`;
  if (kinds.length > 1)
    return `an invariant has the fields of one kind: ${choices}; this one mixes ${kinds.join(' and ')}`;
  const kind = kinds[0]!;
  const missing = INVARIANT_KIND_FIELDS[kind].filter(
    (field) => !(field in (raw as Record<string, unknown>)),
  );
  return missing.length > 0
    ? `a ${kind} invariant needs ${missing.join(' and ')} too`
    : `is not a valid ${kind} invariant`;
}

/**
 * An invariant proven over every path of the flow graph at load time. Which fields are
 * present decides the kind: `before`/`then` (precedence), `never_together` (exclusion),
 * `after`/`eventually` (response) or `approved`/`by_at_least` (approval). Each kind is a strict mapping, so fields of two
 * kinds never mix.
 *
 * @example
 * ```ts
 * invariantSchema.parse({ id: 'one_way', description: 'Refund or payout.', never_together: ['refund', 'pay'] });
 * ```
 */
export const invariantSchema = z
  .union(
    [
      precedenceInvariantSchema,
      exclusionInvariantSchema,
      responseInvariantSchema,
      approvalInvariantSchema,
    ],
    { error: (issue) => invariantShapeMessage(issue.input) },
  )
  .meta({
    description:
      'A rule proven over every path of the flow graph: precedence (before/then), exclusion (never_together), response (after/eventually) or approval (approved/by_at_least).',
  });

/** A precedence invariant: `before` steps complete before any `then` step starts. */
export type PrecedenceInvariant = z.output<typeof precedenceInvariantSchema>;
/** An exclusion invariant: at most one `never_together` step completes in a run. */
export type ExclusionInvariant = z.output<typeof exclusionInvariantSchema>;
/** A response invariant: after an `after` step, a completed run completes an `eventually` step. */
export type ResponseInvariant = z.output<typeof responseInvariantSchema>;
/** An approval invariant: `approved` steps need `by_at_least` distinct approvers. */
export type ApprovalInvariant = z.output<typeof approvalInvariantSchema>;
/** An invariant of any kind. */
export type InvariantDefinition =
  PrecedenceInvariant | ExclusionInvariant | ResponseInvariant | ApprovalInvariant;

/**
 * The kind of a parsed invariant.
 *
 * @example
 * ```ts
 * for (const invariant of definition.invariants) {
 *   if (invariantKind(invariant) === 'precedence') console.log(invariant.id);
 * }
 * ```
 */
export function invariantKind(invariant: InvariantDefinition): InvariantKind {
  if ('never_together' in invariant) return 'exclusion';
  if ('eventually' in invariant) return 'response';
  if ('approved' in invariant) return 'approval';
  return 'precedence';
}

/**
 * Narrows an invariant to the precedence kind (`before`/`then`).
 *
 * @example
 * ```ts
 * definition.invariants.filter(isPrecedenceInvariant).map((invariant) => invariant.then);
 * ```
 */
export function isPrecedenceInvariant(
  invariant: InvariantDefinition,
): invariant is PrecedenceInvariant {
  return invariantKind(invariant) === 'precedence';
}

/**
 * The step lists of an invariant with the field each is written in, for checks that
 * treat every kind alike (unknown steps, references).
 *
 * @example
 * ```ts
 * invariantStepLists({ id: 'x', description: '…', before: ['a'], then: ['b'] });
 * // [{ field: 'before', steps: ['a'] }, { field: 'then', steps: ['b'] }]
 * ```
 */
export function invariantStepLists(
  invariant: InvariantDefinition,
): readonly { readonly field: string; readonly steps: readonly string[] }[] {
  if ('never_together' in invariant)
    return [{ field: 'never_together', steps: invariant.never_together }];
  if ('eventually' in invariant)
    return [
      { field: 'after', steps: invariant.after },
      { field: 'eventually', steps: invariant.eventually },
    ];
  if ('approved' in invariant) return [{ field: 'approved', steps: invariant.approved }];
  return [
    { field: 'before', steps: invariant.before },
    { field: 'then', steps: invariant.then },
  ];
}
