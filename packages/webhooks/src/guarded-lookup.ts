import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { ForbiddenAddressError, isPermittedAddress } from '@programrun/engine';

/** One answer of a resolver. */
export interface ResolvedAddress {
  readonly address: string;
  /** 4 or 6 (recomputed from `address`; a resolver's own value is not trusted). */
  readonly family: number;
}

/** What Node asks for when it connects: the address family (0 = both) and getaddrinfo hints. */
export interface ResolveQuery {
  readonly family: 0 | 4 | 6;
  readonly hints: number;
}

/**
 * Resolves a host name to every address it has. Injected in tests to simulate DNS
 * answers (including rebinding); the default is `dns.lookup`, as Node itself uses.
 */
export type Resolver = (
  hostname: string,
  query: ResolveQuery,
) => Promise<readonly ResolvedAddress[]>;

/**
 * The operating system's resolver (`dns.lookup` with `all: true`): hosts file, then DNS.
 *
 * @example
 * ```ts
 * await systemResolver('localhost', { family: 0, hints: 0 }); // [{ address: '::1', family: 6 }, …]
 * ```
 */
export const systemResolver: Resolver = (hostname, query) =>
  dns.lookup(hostname, { all: true, family: query.family, hints: query.hints });

/** The policy of a guarded lookup. */
export interface GuardedLookupOptions {
  /** Local development: loopback answers pass (other non-public answers never do). */
  readonly allowLoopback: boolean;
  /** Defaults to `systemResolver`. */
  readonly resolve?: Resolver;
}

function queryOf(options: LookupOptions | number | undefined): ResolveQuery {
  const raw = typeof options === 'number' ? options : options?.family;
  const family = raw === 4 || raw === 'IPv4' ? 4 : raw === 6 || raw === 'IPv6' ? 6 : 0;
  const hints = typeof options === 'object' ? (options.hints ?? 0) : 0;
  return { family, hints };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  error.syscall = 'getaddrinfo';
  return Object.assign(error, { hostname });
}

async function resolveChecked(
  hostname: string,
  query: ResolveQuery,
  options: GuardedLookupOptions,
): Promise<LookupAddress[]> {
  const answers = await (options.resolve ?? systemResolver)(hostname, query);
  const addresses = answers
    .map(({ address }) => ({ address, family: isIP(address) }))
    .filter(({ family }) => query.family === 0 || family === query.family);
  // A single refused answer refuses the host: a round-robin record mixing a public and an
  // internal address must not reach the internal one on some attempts.
  const refused = answers.find(({ address }) => !isPermittedAddress(address, options));
  if (refused !== undefined) throw new ForbiddenAddressError(hostname, refused.address);
  // Node's autoSelectFamily path crashes on an empty list: answer ENOTFOUND instead.
  if (addresses.length === 0) throw notFound(hostname);
  return addresses;
}

/**
 * A `lookup` for `net.connect` / `http.request` that resolves the host and refuses it
 * (error code `forbidden_address`) when ANY answer is not permitted; the socket then
 * connects only to the addresses that passed, so DNS rebinding between a check and the
 * connection cannot happen. Answers both forms Node uses: `{ all: true }` (Node 20's
 * default `autoSelectFamily`) with a list, and the single-address callback. Node skips
 * `lookup` for IP literals: check those with `isPermittedAddress` before connecting.
 *
 * @example
 * ```ts
 * http.request({ hostname: 'hooks.example.com', lookup: createGuardedLookup({ allowLoopback: false }) });
 * ```
 */
export function createGuardedLookup(options: GuardedLookupOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const query = queryOf(lookupOptions);
    const all = typeof lookupOptions === 'object' && lookupOptions.all === true;
    // Callbacks run outside the promise chain, so an exception they throw is not swallowed.
    void Promise.resolve()
      .then(() => resolveChecked(hostname, query, options))
      .then(
        (addresses) => {
          const first = addresses[0]!;
          if (all) process.nextTick(callback, null, addresses);
          else process.nextTick(callback, null, first.address, first.family);
        },
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          process.nextTick(callback, failure, '');
        },
      );
  };
}
