// A small client of a host's /v1 API over real HTTP (global fetch), for the durability suites.

/** An answer: its status and parsed JSON body; `status` 0 when no answer came (a crash). */
export interface ApiAnswer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  /** A stored answer replayed for a repeated Idempotency-Key (`Idempotent-Replayed: true`). */
  readonly replayed: boolean;
  /** The network error when `status` is 0. */
  readonly error?: unknown;
}

/** Calls one host with one API key. */
export interface ApiClient {
  readonly baseUrl: string;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { readonly body?: unknown; readonly idempotencyKey?: string },
  ): Promise<ApiAnswer<T>>;
}

/** How long one request may take before it counts as unanswered. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A client of `baseUrl` authenticating with `key`. Network failures (a killed host, a
 * timeout) resolve with status 0 instead of throwing, so load generators can tally them.
 *
 * @example
 * ```ts
 * const client = apiClient(host.baseUrl, key);
 * const { status, body } = await client.call('GET', '/v1/program-runs/prun_1');
 * ```
 */
export function apiClient(baseUrl: string, key: string): ApiClient {
  return {
    baseUrl,
    async call<T>(
      method: string,
      path: string,
      options: { readonly body?: unknown; readonly idempotencyKey?: string } = {},
    ): Promise<ApiAnswer<T>> {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        return {
          status: response.status,
          body: (text ? JSON.parse(text) : {}) as T,
          replayed: response.headers.get('idempotent-replayed') === 'true',
        };
      } catch (error) {
        return { status: 0, body: {} as T, replayed: false, error };
      }
    },
  };
}

/**
 * Every item of a paginated `/v1` list (`starting_after` cursors, 100 per page).
 *
 * @example
 * ```ts
 * const runs = await listAll<{ id: string }>(client, '/v1/program-runs');
 * ```
 */
export async function listAll<T extends { readonly id: string }>(
  client: ApiClient,
  path: string,
): Promise<T[]> {
  const items: T[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 0; page < 1_000; page += 1) {
    const after = items.length > 0 ? `&starting_after=${items[items.length - 1]!.id}` : '';
    const answer = await client.call<{ data: T[]; has_more: boolean }>(
      'GET',
      `${path}${separator}limit=100${after}`,
    );
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
    items.push(...answer.body.data);
    if (!answer.body.has_more) return items;
  }
  throw new Error(`GET ${path}: too many pages`);
}
