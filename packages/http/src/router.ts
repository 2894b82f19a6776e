import type { Engine } from '@programrun/engine';
import type { AuthorizeApproval } from './auth/authorize-approval.js';
import type { Principal } from './auth/principal.js';
import type { IdempotencyPolicy } from './idempotency/idempotency.js';
import type { OperationSpec } from './openapi/operation-spec.js';
import type { OpenStreams } from './streams/open-streams.js';

/** What every route handler receives. */
export interface RouteContext {
  readonly request: Request;
  readonly url: URL;
  /** Path parameters, e.g. `{ id: 'prun_…' }`. */
  readonly params: Readonly<Record<string, string>>;
  /** The caller; for public routes, an anonymous principal in the test environment. */
  readonly principal: Principal;
  readonly requestId: string;
  readonly engine: Engine;
  readonly maxBodyBytes: number;
  readonly idempotency: IdempotencyPolicy;
  /** Whether the principal may decide an approval step (the host's, or by scopes). */
  readonly authorizeApproval: AuthorizeApproval;
  /** Purges expired Idempotency-Key records if it is time to (in the background). */
  readonly purgeExpiredKeys: () => void;
  /** The handler's open event streams and their policy. */
  readonly streams: OpenStreams;
}

/**
 * One endpoint: its {@link OperationSpec} (what the OpenAPI document says of it) and its
 * handler. Made by `defineRoute`.
 */
export interface Route extends OperationSpec {
  readonly handle: (context: RouteContext) => Promise<Response>;
}

/** Result of matching a request against the routes. */
export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'wrong_method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index]!;
    if (segment.startsWith(':')) {
      if (value === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (segment !== value) {
      return undefined;
    }
  }
  return params;
}

/**
 * Finds the route for a method and path; tells a wrong method (405) from an unknown path (404).
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'none' };
}
