/** Why a value cannot be stored alike by every store (memory, PGlite, PostgreSQL). */
export type UnstorableProblem =
  'nul_character' | 'lone_surrogate' | 'non_finite_number' | 'integer_out_of_range';

/** An unstorable value and where it is: a JSON pointer into the value checked. */
export interface UnstorableValue {
  readonly pointer: string;
  readonly problem: UnstorableProblem;
}

/**
 * The range of a SQL `integer` column, which every number a store keeps outside a JSON
 * document goes into (versions, sequences, attempts, limits).
 *
 * @example
 * ```ts
 * SQL_INTEGER_MAX; // 2147483647
 * ```
 */
export const SQL_INTEGER_MAX = 2 ** 31 - 1;
const SQL_INTEGER_MIN = -(2 ** 31);

/**
 * What each problem means, worded to follow the place it was found.
 *
 * @example
 * ```ts
 * `/note ${UNSTORABLE_MESSAGES.nul_character}`; // '/note contains U+0000 (NUL), which …'
 * ```
 */
export const UNSTORABLE_MESSAGES: Readonly<Record<UnstorableProblem, string>> = {
  nul_character: 'contains U+0000 (NUL), which PostgreSQL text cannot hold',
  lone_surrogate: 'contains an unpaired UTF-16 surrogate, which has no UTF-8 form',
  non_finite_number: 'is not a finite number (JSON has no Infinity or NaN)',
  integer_out_of_range: `must be an integer from ${SQL_INTEGER_MIN} to ${SQL_INTEGER_MAX}`,
};

/**
 * What keeps a text from being stored: a NUL character (PostgreSQL text refuses it) or an
 * unpaired surrogate (it has no UTF-8 form: drivers silently replace it with U+FFFD).
 *
 * @example
 * ```ts
 * textProblem('ok');        // undefined
 * textProblem('a\u0000b');  // 'nul_character'
 * textProblem('\ud800');    // 'lone_surrogate'
 * ```
 */
export function textProblem(text: string): 'nul_character' | 'lone_surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul_character';
  if (!text.isWellFormed()) return 'lone_surrogate';
  return undefined;
}

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every text (keys included) and number inside a JSON-like value that a store could not
 * keep alike: texts with {@link textProblem}s and numbers that are not finite. Stops after
 * `limit` findings.
 *
 * @example
 * ```ts
 * findUnstorable({ a: ['x', 'y\u0000'] }); // [{ pointer: '/a/1', problem: 'nul_character' }]
 * ```
 */
export function findUnstorable(value: unknown, limit = 20): UnstorableValue[] {
  // Nearly every value is storable: a walk that builds no pointers proves it; only a value
  // with a problem is walked again to say where.
  if (isStorable(value)) return [];
  const found: UnstorableValue[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (found.length >= limit) return;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) found.push({ pointer, problem });
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) found.push({ pointer, problem: 'non_finite_number' });
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${pointer}/${index}`));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const at = `${pointer}/${escapeToken(key)}`;
        const problem = textProblem(key);
        if (problem) found.push({ pointer: at, problem });
        visit(item, at);
      }
    }
  };
  visit(value, '');
  return found;
}

/** Whether every text (keys included) and number inside `node` is storable. */
function isStorable(node: unknown): boolean {
  if (typeof node === 'string') return textProblem(node) === undefined;
  if (typeof node === 'number') return Number.isFinite(node);
  if (typeof node !== 'object' || node === null) return true;
  if (Array.isArray(node)) {
    for (const item of node) if (!isStorable(item)) return false;
    return true;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    if (textProblem(key) !== undefined) return false;
    if (!isStorable((node as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Column-level numbers that a SQL `bigint` column holds instead of an `integer`. */
const BIGINT_FIELDS = new Set(['offset_ms']);

/** Whether `value` fits the column of `field` (a SQL `integer`, or a `bigint` for a few). */
function fitsColumn(value: unknown, field: string): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return true;
  return BIGINT_FIELDS.has(field)
    ? Number.isSafeInteger(value)
    : Number.isInteger(value) && value >= SQL_INTEGER_MIN && value <= SQL_INTEGER_MAX;
}

/** Whether every field of `row` (when it is an object) fits its column. */
function rowFits(row: unknown): boolean {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return true;
  for (const key in row) {
    if (Object.hasOwn(row, key) && !fitsColumn((row as Record<string, unknown>)[key], key))
      return false;
  }
  return true;
}

/**
 * Numbers a store keeps in integer columns, as opposed to inside JSON documents: an
 * argument itself, a field of an argument, or a field of a row in an argument's list.
 * Allocates nothing for an argument whose numbers all fit.
 */
function integerColumnProblems(argument: unknown): UnstorableValue[] {
  const fits = Array.isArray(argument)
    ? argument.every((row) => fitsColumn(row, '') && rowFits(row))
    : fitsColumn(argument, '') && rowFits(argument);
  if (fits) return [];
  const problems: UnstorableValue[] = [];
  const fields = (row: unknown, prefix: string): void => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return;
    for (const [key, value] of Object.entries(row))
      if (!fitsColumn(value, key))
        problems.push({
          pointer: `${prefix}/${escapeToken(key)}`,
          problem: 'integer_out_of_range',
        });
  };
  const check = (row: unknown, pointer: string): void => {
    if (!fitsColumn(row, '')) problems.push({ pointer, problem: 'integer_out_of_range' });
    fields(row, pointer);
  };
  if (Array.isArray(argument)) argument.forEach((row, index) => check(row, `/${index}`));
  else check(argument, '');
  return problems;
}

/**
 * The first value among a store operation's arguments that no store could keep alike,
 * with the argument's position: texts with NUL or unpaired surrogates and non-finite
 * numbers anywhere, and integer columns out of their SQL range.
 *
 * @example
 * ```ts
 * firstUnstorableArgument([{ account: 'a' }, 'prun_\u0000']);
 * // { argument: 1, pointer: '', problem: 'nul_character' }
 * ```
 */
export function firstUnstorableArgument(
  args: readonly unknown[],
): (UnstorableValue & { readonly argument: number }) | undefined {
  for (const [argument, value] of args.entries()) {
    const found = findUnstorable(value, 1)[0] ?? integerColumnProblems(value)[0];
    if (found) return { argument, ...found };
  }
  return undefined;
}
