// Validation of flow-control options: a misconfigured limiter fails where it is created,
// not later as a breaker that never opens or a queue that admits nothing.

/** Throws a RangeError unless `value` is an integer of at least `min`. */
export function assertInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer of at least ${min}, got ${String(value)}`);
  }
}

/** Throws a RangeError unless `value` is a finite number above zero. */
export function assertPositive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a finite number above 0, got ${String(value)}`);
  }
}

/** Throws a RangeError unless `now` is a finite time in milliseconds. */
export function assertTime(now: number): void {
  if (!Number.isFinite(now)) throw new RangeError(`now must be finite milliseconds, got ${now}`);
}
