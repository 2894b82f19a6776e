// Holds a real output to what a guide shows of it. What differs on every machine (ids,
// hashes, timestamps, secrets, key ids) is compared by its form; everything else must be
// equal. An object or array the guide trimmed with `…` may hold more than it shows.
import type { ShownValue } from './elided-json.js';

const VOLATILE: readonly [RegExp, string][] = [
  [/\b(prun|evt|req|lead|key|sim|pik|we|wdl|msg|tmr)_[A-Za-z0-9]{8,}/g, '$1_*'],
  [/\bpr_(test|live)_[A-Za-z0-9]{38}\b/g, 'pr_$1_*'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_*'],
  [/\bsha256:[0-9a-f]{64}\b/g, 'sha256:*'],
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, '<time>'],
  [/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, '<key id>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>'],
  [/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>'],
];

/**
 * Replaces what differs from one machine or run to the next by a placeholder of its form.
 *
 * @example
 * ```ts
 * normalize('prun_6IyvyU97IUKMjREHcYpY4POB at 2026-11-21T07:16:05.975Z'); // 'prun_* at <time>'
 * ```
 */
export function normalize(text: string): string {
  return VOLATILE.reduce(
    (result, [pattern, replacement]) => result.replace(pattern, replacement),
    text,
  );
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/**
 * Where `actual` differs from what the guide shows (`[]` when it holds everything shown).
 *
 * @example
 * ```ts
 * mismatches(parseShownJson('{ "status": "waiting", … }'), { status: 'completed', id: 'x' });
 * // ['/status: shown "waiting", got "completed"']
 * ```
 */
export function mismatches(shown: ShownValue, actual: unknown, path = ''): string[] {
  const where = path || '/';
  if (shown.kind === 'scalar') {
    const expected = shown.value;
    const same =
      typeof expected === 'string' && typeof actual === 'string'
        ? normalize(expected) === normalize(actual)
        : expected === actual;
    return same ? [] : [`${where}: shown ${show(expected)}, got ${show(actual)}`];
  }
  if (shown.kind === 'array') {
    if (!Array.isArray(actual)) return [`${where}: shown a list, got ${show(actual)}`];
    if (!shown.elided) {
      if (shown.items.length !== actual.length)
        return [`${where}: shown ${shown.items.length} items, got ${actual.length}`];
      return shown.items.flatMap((item, index) =>
        mismatches(item, actual[index], `${path}/${index}`),
      );
    }
    // Trimmed: the shown items appear in this order among the real ones.
    let cursor = 0;
    for (const [index, item] of shown.items.entries()) {
      while (cursor < actual.length && mismatches(item, actual[cursor]).length > 0) cursor += 1;
      if (cursor === actual.length)
        return [`${where}: shown item ${index} (${show(item)}) is not in the list, in order`];
      cursor += 1;
    }
    return [];
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
    return [`${where}: shown an object, got ${show(actual)}`];
  const record = actual as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, value] of shown.entries) {
    if (!(key in record)) problems.push(`${path}/${key}: shown, but absent`);
    else problems.push(...mismatches(value, record[key], `${path}/${key}`));
  }
  if (!shown.elided) {
    const shownKeys = new Set(shown.entries.map(([key]) => key));
    const extra = Object.keys(record).filter((key) => !shownKeys.has(key));
    if (extra.length > 0) problems.push(`${where}: not shown (and no …): ${extra.join(', ')}`);
  }
  return problems;
}
