import { formatApiKey } from '@programrun/engine';

/** The test key every benchmark server accepts (a fixed, well-formed key). */
export const BENCH_KEY = formatApiKey('test', 'BenchmarkKey0123456789abcdefghij');

/**
 * Headers of a create-run request with the bench key: JSON body, a Bearer key and the
 * given Idempotency-Key.
 *
 * @example
 * ```ts
 * await fetch(url, { method: 'POST', headers: createRunHeaders(randomUUID()), body });
 * ```
 */
export function createRunHeaders(idempotencyKey: string): Record<string, string> {
  return {
    authorization: `Bearer ${BENCH_KEY}`,
    'content-type': 'application/json',
    'idempotency-key': idempotencyKey,
  };
}
