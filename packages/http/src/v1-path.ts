/**
 * True for the paths programrun answers: `/v1` and everything under it. Framework
 * adapters pass any other path on to the host's own routes.
 *
 * @example
 * ```ts
 * isV1Path('/v1/program-runs'); // true
 * isV1Path('/health'); // false
 * ```
 */
export function isV1Path(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}
