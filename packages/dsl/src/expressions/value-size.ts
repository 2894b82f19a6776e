const deepSizes = new WeakMap<object, number>();

/**
 * What reading all of `value` costs, in steps: characters of a string, elements of a
 * list or map (nested ones included), one for anything else. Remembered per object, so
 * the same input list is measured once.
 */
export function deepSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 1;
  if (typeof value !== 'object' || value === null) return 1;
  const known = deepSizes.get(value);
  if (known !== undefined) return known;
  let size = 1;
  if (value instanceof Uint8Array) size += value.length;
  else if (Array.isArray(value)) for (const item of value as unknown[]) size += deepSize(item);
  else if (value instanceof Map) {
    for (const [key, item] of value as Map<unknown, unknown>)
      size += deepSize(key) + deepSize(item);
  } else if (!(value instanceof Date)) {
    for (const item of Object.values(value)) size += deepSize(item);
  }
  deepSizes.set(value, size);
  return size;
}

/** The top-level length of a string, list, bytes or map; 0 for anything else. */
export function shallowSize(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value) || value instanceof Uint8Array)
    return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  return 0;
}

/** The length of a string; 0 for anything else (`size()` of a list or map is constant). */
export function stringSize(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** A list's deep size (membership compares elements); 0 for maps (a hashed lookup). */
export function membershipSize(value: unknown): number {
  return Array.isArray(value) ? deepSize(value) : stringSize(value);
}
