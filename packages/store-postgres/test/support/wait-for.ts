// Bounded polling: every wait in the durability suites ends, with a reason when it fails.

/**
 * Polls `probe` every `intervalMs` until it returns a value other than undefined, or
 * throws with `description` after `timeoutMs`.
 *
 * @example
 * ```ts
 * const run = await waitFor('run completed', async () => (await getRun()).status === 'completed' || undefined);
 * ```
 */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 200 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
