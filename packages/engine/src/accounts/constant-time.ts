/**
 * Compares two strings without an early exit, so the time taken says nothing about
 * where they first differ. Lengths are not secret (digests have a fixed length).
 *
 * @example
 * ```ts
 * constantTimeEqual(storedHash, sha256Digest(presented)); // true or false, in the same time
 * ```
 */
export function constantTimeEqual(left: string, right: string): boolean {
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index += 1) {
    difference |= left.charCodeAt(index) ^ (right.charCodeAt(index) || 0);
  }
  return difference === 0;
}
