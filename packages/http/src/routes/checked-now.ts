/**
 * Runs a check now, before any transaction, and hands back its result for later: the
 * value, or the error it threw, rethrown where the result is used. So a request is parsed
 * and validated once, yet an Idempotency-Key replay or reuse is still answered first.
 */
export function checkedNow<T>(check: () => T): () => T {
  try {
    const value = check();
    return () => value;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}
