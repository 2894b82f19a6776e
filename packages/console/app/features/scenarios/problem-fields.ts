// The field problems of an API refusal (problem+json `errors`, JSON pointers into the
// request body), placed next to the fields of the "Create a test run" form.
import type { FormField } from './schema-form.js';

/** One entry of a problem's `errors`. */
export interface ProblemField {
  readonly pointer: string;
  readonly message: string;
}

/** The problems by field key, and those that name no field (shown with the form). */
export interface PlacedProblems {
  readonly byKey: ReadonlyMap<string, readonly ProblemField[]>;
  readonly other: readonly ProblemField[];
}

/** The `errors` list of a problem document, keeping only well-formed entries. */
export function problemFields(problem: unknown): ProblemField[] {
  const errors = (problem as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const { pointer, message } = (entry ?? {}) as Record<string, unknown>;
    return typeof pointer === 'string' && typeof message === 'string' ? [{ pointer, message }] : [];
  });
}

/** The keys of the fields and groups, nested ones included. */
function everyKey(fields: readonly FormField[]): string[] {
  return fields.flatMap((field) => [
    field.key,
    ...(field.kind === 'group' ? everyKey(field.fields) : []),
  ]);
}

/**
 * Each problem under the field its pointer names, or the closest field or group above it (an item
 * of a list, a key inside a JSON field); `/inputs/…` pointers are into the inputs. A
 * problem of no field (the inputs as a whole, another member of the body) is in `other`.
 */
export function placeProblems(
  fields: readonly FormField[],
  problems: readonly ProblemField[],
): PlacedProblems {
  const keys = everyKey(fields);
  const byKey = new Map<string, ProblemField[]>();
  const other: ProblemField[] = [];
  for (const problem of problems) {
    const { pointer } = problem;
    const inner = pointer.startsWith('/inputs/') ? pointer.slice('/inputs'.length) : null;
    const key =
      inner === null
        ? undefined
        : keys
            .filter((candidate) => inner === candidate || inner.startsWith(`${candidate}/`))
            .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) other.push(problem);
    else byKey.set(key, [...(byKey.get(key) ?? []), problem]);
  }
  return { byKey, other };
}
