import type { Trace } from './run-trace.js';

/**
 * Every signal of a trace that changed the run when it must not have: a late or
 * out-of-order partner answer the engine applied, or a refused or duplicate signal that
 * appended records. Empty when stale answers were refused (or acknowledged as
 * duplicates) and refusals left the run as it was.
 *
 * @example
 * ```ts
 * staleAnswerViolations(trace); // ['late answer screen: confirmed (key of screen attempt 1) was applied at …']
 * ```
 */
export function staleAnswerViolations(trace: Trace): string[] {
  const violations: string[] = [];
  for (const entry of trace.timeline) {
    if (entry.stale && entry.outcome === 'applied') {
      violations.push(`${entry.action} was applied at ${entry.at}; it must be refused`);
    }
    if ((entry.outcome === 'refused' || entry.outcome === 'duplicate') && entry.records.length) {
      const types = entry.records.map((record) => record.type).join(', ');
      violations.push(`${entry.action} was ${entry.outcome} at ${entry.at} yet appended ${types}`);
    }
  }
  return violations;
}
