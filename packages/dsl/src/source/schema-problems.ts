import type { z } from 'zod';
import type { Problem } from '../problem.js';
import type { YamlSource } from './yaml-source.js';

type Path = (string | number)[];

function describeExpected(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    const expected =
      issue.expected === 'number'
        ? 'a number'
        : issue.expected === 'array'
          ? 'a list'
          : issue.expected === 'object'
            ? 'a mapping'
            : `a ${issue.expected}`;
    return `must be ${expected}`;
  }
  if (issue.code === 'invalid_value')
    return `must be one of ${issue.values.map((value) => String(value)).join(', ')}`;
  if (issue.code === 'invalid_union' && 'discriminator' in issue && 'options' in issue) {
    const options = (issue.options as unknown[]).map(String).join(', ');
    return `must be one of ${options}`;
  }
  if (issue.code === 'too_small' && issue.origin === 'array')
    return `needs at least ${String(issue.minimum)} item(s)`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'must not be empty';
  return issue.message;
}

/**
 * Turns zod issues into positioned problems: a missing field points at its parent,
 * an unknown field at its key, anything else at the offending value.
 */
export function schemaProblems(
  issues: readonly z.core.$ZodIssue[],
  source: YamlSource,
  data: unknown,
): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const path = issue.path.filter(
      (segment): segment is string | number => typeof segment !== 'symbol',
    );
    const branch = fittingBranch(issue);
    if (branch) {
      const nested = branch.map((inner) => ({ ...inner, path: [...path, ...inner.path] }));
      problems.push(...schemaProblems(nested, source, data));
      continue;
    }
    if (issue.code === 'invalid_union' && !('discriminator' in issue)) {
      // A union keyed by which fields are present (invariants): the message says which.
      problems.push(source.problemAt('invalid_value', issue.message, path));
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push(
          source.problemAt(
            'unknown_field',
            `"${key}" is not a field here`,
            [...path, key],
            source.locateKey([...path, key]),
          ),
        );
      }
      continue;
    }
    const field = path.at(-1);
    const missing = issue.code === 'invalid_type' && valueAt(data, path) === undefined;
    if (missing) {
      problems.push(
        source.problemAt(
          'missing_field',
          `${String(field)} is required`,
          path,
          source.locate(path.slice(0, -1)),
        ),
      );
      continue;
    }
    const label = field === undefined ? 'scenario' : String(field);
    problems.push(source.problemAt('invalid_value', `${label} ${describeExpected(issue)}`, path));
  }
  return problems;
}

/**
 * In a union keyed by which fields are present, the one alternative whose fields the
 * value has (no unknown key at its root): its own issues say precisely what is wrong.
 * Undefined when no alternative or several fit (mixed or missing kind fields).
 */
function fittingBranch(issue: z.core.$ZodIssue): readonly z.core.$ZodIssue[] | undefined {
  if (issue.code !== 'invalid_union' || 'discriminator' in issue) return undefined;
  const fitting = issue.errors.filter(
    (branch) =>
      !branch.some((inner) => inner.code === 'unrecognized_keys' && inner.path.length === 0),
  );
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** The raw value at `path`, or undefined. */
export function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let current: unknown = data;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

export type { Path };
