// Where the console is mounted. The handler writes the prefix into index.html as
// <meta name="programrun-console-prefix" content="/console">; without it (a static copy),
// the prefix is the path the app's own script was served from, before `/assets/`.

/** The default mount path of the console. */
export const DEFAULT_PREFIX = '/console';

/** `value` as a prefix: leading slash, no trailing slash; `''` for the root. */
export function normalizePrefix(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The prefix of a script URL like `https://host/ops/console/assets/index-1a2b.js`. */
export function prefixFromAssetUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const at = pathname.lastIndexOf('/assets/');
  return at < 0 ? null : normalizePrefix(pathname.slice(0, at));
}

/** The prefix from the meta tag's content, else the asset URL, else the default. */
export function resolvePrefix(metaContent: string | null, assetUrl: string | null): string {
  if (metaContent !== null && metaContent.trim() !== '') return normalizePrefix(metaContent);
  const fromAsset = assetUrl === null ? null : prefixFromAssetUrl(assetUrl);
  return fromAsset ?? DEFAULT_PREFIX;
}
