import * as ipaddrModule from 'ipaddr.js';
import type { IPv4, IPv6 } from 'ipaddr.js';
import { ProgramrunError } from '@programrun/evidence';

// ipaddr.js is CommonJS (`module.exports = ipaddr`): Node hands it to ESM as the default
// export, bundlers as the namespace itself. No `node:module` needed on any runtime.
const ipaddr =
  (ipaddrModule as typeof ipaddrModule & { default?: typeof ipaddrModule }).default ?? ipaddrModule;

/**
 * What an IP address is to webhook delivery: a `public` unicast address anyone may
 * receive webhooks on, the machine's own `loopback`, or `forbidden` (everything else).
 */
export type AddressClass = 'public' | 'loopback' | 'forbidden';

/** The NAT64 well-known prefix `64:ff9b::/96` (RFC 6052): the last 32 bits are an IPv4 address. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IANA's global unicast block: every other IPv6 block is special-purpose or unassigned. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function classifyIPv4(address: IPv4): AddressClass {
  const range = address.range();
  if (range === 'unicast') return 'public';
  return range === 'loopback' ? 'loopback' : 'forbidden';
}

function embeddedIPv4(address: IPv6): IPv4 {
  const [high = 0, low = 0] = address.parts.slice(6);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyIPv6(address: IPv6): AddressClass {
  // A scoped address (`fe80::1%eth0`) only means something on one link.
  if (address.zoneId !== undefined) return 'forbidden';
  // `::ffff:127.0.0.1` is 127.0.0.1 on a dual-stack socket.
  if (address.isIPv4MappedAddress()) return classifyIPv4(address.toIPv4Address());
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  // The deprecated IPv4-compatible block `::/96` (`::127.0.0.1`): ipaddr.js calls it
  // unicast, but it never names a public host.
  if (address.parts.slice(0, 6).every((part) => part === 0)) return 'forbidden';
  // NAT64 reaches the embedded IPv4 address: allowed only when that one is public.
  if (address.match(NAT64_WELL_KNOWN)) {
    return classifyIPv4(embeddedIPv4(address)) === 'public' ? 'public' : 'forbidden';
  }
  return range === 'unicast' && address.match(GLOBAL_UNICAST) ? 'public' : 'forbidden';
}

/**
 * Rewrites an IPv6 address's trailing dotted quad as two hex groups. ipaddr.js reads
 * `::a.b.c.d` as `::ffff:a.b.c.d`, which is another address (IPv4-compatible, not mapped).
 */
function hexTail(address: string): string {
  const match = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(address);
  if (match === null) return address;
  const [a, b, c, d] = match.slice(2, 6).map(Number) as [number, number, number, number];
  const group = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${match[1]!}${group(a, b)}:${group(c, d)}${match[6] ?? ''}`;
}

/**
 * True for an IP address in the forms DNS answers and sockets use: dotted-quad IPv4 with
 * no leading zeros, or IPv6 (optionally with an embedded dotted quad or a zone).
 */
function isIpLiteral(address: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return true;
  return address.includes(':') && ipaddr.IPv6.isValid(address);
}

/**
 * Classifies an IP address written as Node and DNS answers write them: dotted-quad IPv4
 * or IPv6 (with or without an embedded dotted quad). Anything else, including the
 * shortened, octal and hex IPv4 forms URLs accept (`127.1`, `0x7f.1`), is `forbidden`:
 * normalise URLs with WHATWG `URL` first.
 *
 * @example
 * ```ts
 * classifyAddress('8.8.8.8'); // 'public'
 * classifyAddress('::ffff:127.0.0.1'); // 'loopback'
 * classifyAddress('169.254.169.254'); // 'forbidden'
 * ```
 */
export function classifyAddress(address: string): AddressClass {
  if (!isIpLiteral(address)) return 'forbidden';
  let parsed: IPv4 | IPv6;
  try {
    parsed = ipaddr.parse(address.includes(':') ? hexTail(address) : address);
  } catch {
    return 'forbidden';
  }
  return parsed.kind() === 'ipv4' ? classifyIPv4(parsed as IPv4) : classifyIPv6(parsed as IPv6);
}

/**
 * True unless the address is public unicast: loopback, private, link-local (cloud
 * metadata `169.254.169.254`), unique-local, carrier-grade NAT, unspecified, multicast,
 * broadcast, reserved, documentation, benchmarking, 6to4, Teredo, NAT64 of such an
 * address, IPv4-mapped or IPv4-compatible forms of them, and unparseable text.
 *
 * @example
 * ```ts
 * isForbiddenAddress('10.0.0.1'); // true
 * isForbiddenAddress('::ffff:7f00:1'); // true
 * isForbiddenAddress('2606:4700::1111'); // false
 * ```
 */
export function isForbiddenAddress(address: string): boolean {
  return classifyAddress(address) !== 'public';
}

/**
 * True when webhooks may be sent to the address: a public one, or a loopback one when
 * the deployment allows loopback (local development).
 *
 * @example
 * ```ts
 * isPermittedAddress('127.0.0.1', { allowLoopback: true }); // true
 * isPermittedAddress('127.0.0.1', { allowLoopback: false }); // false
 * isPermittedAddress('10.0.0.1', { allowLoopback: true }); // false
 * ```
 */
export function isPermittedAddress(
  address: string,
  options: { readonly allowLoopback: boolean },
): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && options.allowLoopback);
}

/**
 * The stable code of a refused destination address, in URL checks, lookups and attempts.
 *
 * @example
 * ```ts
 * if (result.error?.code === FORBIDDEN_ADDRESS) disableEndpoint(endpoint);
 * ```
 */
export const FORBIDDEN_ADDRESS = 'forbidden_address';

/**
 * A webhook destination that is not a permitted address. The message never names the
 * address (it may be an internal one an attacker is probing for); `address` keeps it for
 * server logs.
 *
 * @example
 * ```ts
 * const error = new ForbiddenAddressError('internal.example', '10.0.0.7');
 * error.code; // 'forbidden_address'
 * ```
 */
export class ForbiddenAddressError extends ProgramrunError {
  declare readonly code: typeof FORBIDDEN_ADDRESS;
  /** The host name or IP literal of the endpoint URL. */
  readonly hostname: string;
  /** The refused address (server-side diagnostics only). */
  readonly address: string;

  constructor(hostname: string, address: string) {
    super(
      FORBIDDEN_ADDRESS,
      'The endpoint host is or resolves to an address that is not public (loopback, private, link-local or reserved), so no request was sent.',
    );
    this.hostname = hostname;
    this.address = address;
  }
}
