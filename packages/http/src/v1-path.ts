/**
 * True for the paths programrun answers: `/v1` and everything under it. Framework
 * adapters pass any other path on to the host's own routes.
 */
export function isV1Path(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}
