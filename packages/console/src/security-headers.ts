// The headers every console response carries, whatever its status.

/**
 * The console's Content-Security-Policy: its own scripts, styles and API only; no inline
 * code, no framing, no `<base>`, no form posts elsewhere.
 *
 * @example
 * ```ts
 * CONSOLE_CONTENT_SECURITY_POLICY.includes("script-src 'self'"); // true
 * ```
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The security headers of every console response (CSP, nosniff, no referrer, an isolated
 * browsing context, no framing).
 *
 * @example
 * ```ts
 * new Headers(CONSOLE_SECURITY_HEADERS).get('x-content-type-options'); // 'nosniff'
 * ```
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
