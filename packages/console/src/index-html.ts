// index.html as served under a prefix: Vite writes relative asset URLs (`./assets/…`),
// which a deep link (`/console/runs/prun_…`) would resolve wrongly and the CSP forbids a
// <base>; so the URLs become absolute under the prefix, and a meta tag tells the app
// where it is mounted.

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The built index.html with asset URLs under `prefix` and the prefix meta tag. */
export function indexHtmlFor(html: string, prefix: string): string {
  const at = escapeAttribute(prefix);
  const meta = `<meta name="programrun-console-prefix" content="${at}" />`;
  const withAssets = html.replace(/(\s(?:src|href))="\.\/assets\//g, `$1="${at}/assets/`);
  // Right after <meta charset> (which must come first), else at the top of <head>.
  return /<meta charset[^>]*>/i.test(withAssets)
    ? withAssets.replace(/<meta charset[^>]*>/i, (charset) => `${charset}\n    ${meta}`)
    : withAssets.replace(/<head>/i, `<head>\n    ${meta}`);
}
