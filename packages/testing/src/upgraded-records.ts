import type { LifecycleRecord } from '@programrun/engine';

/**
 * A run's records with each step named as the run's current version names it: a record
 * written before a `program_run.upgraded` record keeps its old step id only where that
 * upgrade (and every later one) left the id unchanged, so a renamed step's records count
 * as the new step's, as the upgrade proof counts them. Records of a run never upgraded are
 * returned as they are.
 *
 * @example
 * ```ts
 * invariantViolations(v2, recordsUnderCurrentIds(trace.records), trace.run.status);
 * ```
 */
export function recordsUnderCurrentIds(
  records: readonly LifecycleRecord[],
): readonly LifecycleRecord[] {
  if (!records.some((record) => record.type === 'program_run.upgraded')) return records;
  let renames: Readonly<Record<string, string>> = {};
  const renamed: LifecycleRecord[] = [];
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const record = records[index]!;
    if (record.type === 'program_run.upgraded') {
      const own = (record.data.renames ?? {}) as Record<string, string>;
      const later = renames;
      renames = {
        ...later,
        ...Object.fromEntries(Object.entries(own).map(([old, next]) => [old, later[next] ?? next])),
      };
    }
    const step = record.step === null ? null : (renames[record.step] ?? record.step);
    renamed.push(step === record.step ? record : { ...record, step });
  }
  return renamed.reverse();
}
