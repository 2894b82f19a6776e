// Which file a request path asks for. Pure: it never touches the file system, and the
// handler only serves files found in its own listing of dist/app, so no path (however
// encoded) can name a file outside it.

/** What a path under the console's prefix resolves to. */
export type ConsolePath =
  /** Not under the prefix: not the console's to answer. */
  | { readonly kind: 'outside' }
  /** A path no file can have (bad percent-encoding, an encoded `/` or `\`, a dot segment, NUL). */
  | { readonly kind: 'invalid' }
  /** A file of the build, relative to dist/app (`assets/index-1a2b.js`). */
  | { readonly kind: 'asset'; readonly file: string }
  /** A client route (or the prefix itself): the app's index.html. */
  | { readonly kind: 'page' };

const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

/** `prefix` checked: `/console`, `/ops/console`; no trailing slash, no dot segments. */
export function checkPrefix(prefix: string): string {
  const segments = prefix.split('/').slice(1);
  const valid =
    prefix.startsWith('/') &&
    segments.length > 0 &&
    segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
  if (!valid) {
    throw new TypeError(
      `The console prefix must be a path like "/console" (no trailing slash): got ${JSON.stringify(prefix)}.`,
    );
  }
  return prefix;
}

function decodeSegment(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (decoded === '.' || decoded === '..') return null;
  if (/[/\\\0]/.test(decoded)) return null;
  return decoded;
}

/**
 * Resolves a request's pathname (still percent-encoded, as in `new URL(url).pathname`)
 * under `prefix`: files of `assets/` (and other files at the top of dist/app) are
 * `asset`, anything else under the prefix is a client route (`page`).
 */
export function resolveConsolePath(pathname: string, prefix: string): ConsolePath {
  if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return { kind: 'outside' };
  const rest = pathname.slice(prefix.length + 1);
  if (rest === '') return { kind: 'page' };
  const decoded: string[] = [];
  for (const segment of rest.split('/')) {
    const one = decodeSegment(segment);
    if (one === null) return { kind: 'invalid' };
    decoded.push(one);
  }
  const file = decoded.join('/');
  if (decoded[0] === 'assets' || (decoded.length === 1 && /\.[a-z0-9]+$/i.test(file))) {
    return { kind: 'asset', file };
  }
  return { kind: 'page' };
}
