/**
 * The value a JSON pointer (RFC 6901) names inside `document`; undefined when it names
 * nothing.
 */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
