/**
 * True for the paths programrun answers: `/v1` and everything under it. Framework
 * adapters pass any other path on to the host's own routes.
 */
export function isV1Path(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

/** The paths a handler answers: its `paths`, else `/v1`. */
export function handlerPaths(handler: { readonly paths?: readonly string[] | undefined }) {
  return handler.paths ?? ['/v1'];
}

/** True when `path` is one of `paths` or under one of them. */
export function isUnderPaths(paths: readonly string[], path: string): boolean {
  return paths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
