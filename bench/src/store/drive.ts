/** What a closed-loop driver did. */
export interface DriveResult {
  readonly completed: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/**
 * Runs `operation` from `concurrency` loops at once until `seconds` have passed (each loop
 * starts its next call when the previous one settles) and counts completed calls.
 *
 * @example
 * ```ts
 * const { perSecond } = await drive(3, 16, () => store.transaction(work));
 * ```
 */
export async function drive(
  seconds: number,
  concurrency: number,
  operation: () => Promise<unknown>,
): Promise<DriveResult> {
  let completed = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await operation();
        completed += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { completed, seconds: elapsed, perSecond: completed / elapsed };
}
