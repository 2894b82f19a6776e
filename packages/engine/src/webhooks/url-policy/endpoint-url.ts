import type { RunEnvironment } from '@programrun/dsl';
import { classifyAddress, FORBIDDEN_ADDRESS } from './address-policy.js';

/**
 * The longest endpoint URL accepted, in characters (as given and once normalised).
 *
 * @example
 * ```ts
 * checkEndpointUrl(`https://a.example/${'x'.repeat(MAX_ENDPOINT_URL_LENGTH)}`, options).ok; // false
 * ```
 */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

/** Stable codes of a refused endpoint URL. */
export type EndpointUrlErrorCode =
  'invalid_url' | 'https_required' | 'credentials_in_url' | typeof FORBIDDEN_ADDRESS;

/** Where an endpoint is registered or delivered, and whether loopback is allowed. */
export interface EndpointUrlOptions {
  readonly environment: RunEnvironment;
  /** Local development: allow `localhost`, `127.0.0.0/8` and `::1` (and plain http to them in live). */
  readonly allowLoopback: boolean;
}

/** An accepted endpoint URL (normalised by WHATWG `URL`), or why it was refused. */
export type EndpointUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: EndpointUrlErrorCode; readonly message: string };

/**
 * True for `localhost` and `*.localhost` (RFC 6761: always the loopback interface), with
 * or without a trailing dot, in any letter case.
 *
 * @example
 * ```ts
 * isLoopbackHostname('api.localhost'); // true
 * isLoopbackHostname('localhost.example.com'); // false
 * ```
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The IP address a URL names directly, without IPv6 brackets, or null when its host is a
 * name. WHATWG `URL` has already rewritten every IPv4 form (`2130706433`, `0x7f.1`,
 * `017700000001`, `127.1`) to a dotted quad.
 *
 * @example
 * ```ts
 * hostAddress(new URL('http://0x7f.1/')); // '127.0.0.1'
 * hostAddress(new URL('http://[::1]:8080/')); // '::1'
 * hostAddress(new URL('https://example.com/')); // null
 * ```
 */
export function hostAddress(url: URL): string | null {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return /^[0-9.]+$/.test(host) ? host : null;
}

function refuse(code: EndpointUrlErrorCode, message: string): EndpointUrlCheck {
  return { ok: false, code, message };
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Checks a webhook endpoint URL, at registration and again before every delivery: an
 * absolute http(s) URL of at most 2,048 characters, without user name, password or
 * fragment; https in live (plain http only to loopback when loopback is allowed); and, for
 * an IP-literal host, a public address (or loopback when allowed). Host names are checked
 * when they resolve, by the guarded lookup.
 *
 * @example
 * ```ts
 * checkEndpointUrl('https://hooks.example.com/programrun', { environment: 'live', allowLoopback: false });
 * // { ok: true, url: URL { … } }
 * checkEndpointUrl('http://169.254.169.254/', { environment: 'test', allowLoopback: false });
 * // { ok: false, code: 'forbidden_address', message: '…' }
 * ```
 */
export function checkEndpointUrl(url: string, options: EndpointUrlOptions): EndpointUrlCheck {
  const tooLong = `The endpoint URL is longer than ${MAX_ENDPOINT_URL_LENGTH} characters.`;
  if (url.length > MAX_ENDPOINT_URL_LENGTH) return refuse('invalid_url', tooLong);
  const parsed = parse(url);
  if (parsed === null) return refuse('invalid_url', 'The endpoint URL is not an absolute URL.');
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return refuse('invalid_url', 'The endpoint URL must use https (or http in test mode).');
  }
  if (parsed.href.length > MAX_ENDPOINT_URL_LENGTH) return refuse('invalid_url', tooLong);
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse(
      'credentials_in_url',
      'The endpoint URL must not contain a user name or password.',
    );
  }
  if (parsed.href.includes('#')) {
    return refuse('invalid_url', 'The endpoint URL must not contain a fragment (#…).');
  }
  const address = hostAddress(parsed);
  const kind = address === null ? null : classifyAddress(address);
  const loopback = kind === 'loopback' || isLoopbackHostname(parsed.hostname);
  if (kind === 'forbidden' || (loopback && !options.allowLoopback)) {
    return refuse(
      FORBIDDEN_ADDRESS,
      'The endpoint URL must name a public host, not a loopback, private, link-local or reserved address.',
    );
  }
  if (options.environment === 'live' && parsed.protocol !== 'https:' && !loopback) {
    return refuse('https_required', 'Live-mode endpoint URLs must use https.');
  }
  return { ok: true, url: parsed };
}
