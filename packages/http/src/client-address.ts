// The network address a Node adapter saw a request come from, beside the fetch Request
// it built (a Request has no such field). Failed authentications are limited by it.
const addresses = new WeakMap<Request, string>();

/**
 * Remembers the address of the client that sent `request` (the socket's remote address).
 */
export function rememberClientAddress(request: Request, address: string | undefined): Request {
  if (address) addresses.set(request, address);
  return request;
}

/**
 * The address a Node adapter remembered for `request`; null for requests that did not
 * come through one (the fetch handler, Hono, tests calling `handle`).
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, clientAddress: (request) => request.headers.get('x-real-ip') ?? adapterClientAddress(request) });
 * ```
 */
export function adapterClientAddress(request: Request): string | null {
  return addresses.get(request) ?? null;
}
