// The console's one way to the /v1 API. How to use it from a page or feature:
//
//   import { api } from '../../api/client.js';
//   import { ApiError, errorMessage } from '../../api/api-error.js';
//   import type { ProgramRun, ListPage } from '../../api/types.js';
//
//   const run = await api.get<ProgramRun>(`/v1/program-runs/${encodeURIComponent(id)}`);
//   const page = await api.get<ListPage<ProgramRun>>('/v1/program-runs', {
//     awaiting: 'approval', limit: 100, starting_after: cursor, // undefined/'' are skipped
//   });
//   await api.post<ProgramRun>(`/v1/program-runs/${id}/approvals`, { step, decision: 'approve' });
//   const svg = await api.text(`/v1/scenarios/${encodeURIComponent(id)}/diagram`);
//   const response = await api.raw('/v1/program-runs/prun_…/evidence'); // exact bytes, no throw
//
// - Authorization: `Bearer <key>` when a key was pasted at sign-in (sessionStorage
//   'programrun.console.key'); without one, cookies only (`credentials: 'same-origin'`),
//   for hosts that sign their operators in themselves.
// - post() sends a fresh `Idempotency-Key` (crypto.randomUUID()) unless you pass one.
// - Any non-2xx throws ApiError { status, code, detail }: render `errorMessage(error)` in
//   an element with role="alert" (components/ErrorAlert.tsx does this).
// - Live run updates: `watchRun` in api/run-stream.ts (stream with polling fallback).
// Shared UI to build pages with: components/Region.tsx (a titled <section>), ErrorAlert,
// Time, StatusText, ScenarioDiagram (sanitised SVG, optional run marks); auth/session.tsx
// (useSession, useCan(scope, party?), useTestMode); routing/navigation.tsx (href, Link,
// navigate). Use `.js` in relative imports, as the rest of the repository does.
import { ApiError, toApiError } from './api-error.js';
import { readSessionKey } from './session-key.js';

/** Query parameters; `undefined`, `null` and `''` values are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** Options of a mutation. */
export interface PostOptions {
  /** Reuse a key to retry the same mutation safely; a fresh UUID by default. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

let onUnauthorized: (() => void) | null = null;

/** Called when a request with a stored key answers 401 (the key was revoked): sign out. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/** `path` with its query string. */
export function withQuery(path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

/** The headers every request carries (Authorization when a key is stored). */
export function authHeaders(key: string | null = readSessionKey()): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (key !== null) headers.set('Authorization', `Bearer ${key}`);
  return headers;
}

/** The Response of a request, whatever its status; throws ApiError only when offline. */
async function raw(
  path: string,
  init: RequestInit = {},
  key = readSessionKey(),
): Promise<Response> {
  const headers = authHeaders(key);
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  try {
    const response = await fetch(path, {
      ...init,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (response.status === 401 && key !== null) onUnauthorized?.();
    return response;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The API could not be reached. Check the connection.');
  }
}

async function ok(response: Response): Promise<Response> {
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
  const response = await ok(await raw(withQuery(path, query), signal ? { signal } : {}));
  return (await response.json()) as T;
}

async function text(path: string, signal?: AbortSignal): Promise<string> {
  const response = await ok(
    await raw(
      path,
      signal ? { signal, headers: { Accept: '*/*' } } : { headers: { Accept: '*/*' } },
    ),
  );
  return response.text();
}

async function post<T>(path: string, body?: unknown, options: PostOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    'Idempotency-Key': options.idempotencyKey ?? crypto.randomUUID(),
  };
  const init: RequestInit = { method: 'POST', headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (options.signal) init.signal = options.signal;
  const response = await ok(await raw(path, init));
  return (await response.json()) as T;
}

/** The API client (see the note at the top of this file). */
export const api = { get, post, text, raw };
