// A small seeded generator (mulberry32), so a load's sequence of choices can be replayed.

/** Uniform numbers in [0, 1) and helpers over them. */
export interface SeededRandom {
  readonly seed: number;
  next(): number;
  /** An integer from `min` to `max`, both included. */
  integer(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/**
 * A generator starting from `seed` (a random one when omitted; print `seed` to replay).
 *
 * @example
 * ```ts
 * const random = seededRandom(42);
 * random.integer(1, 6); // always the same first roll for seed 42
 * ```
 */
export function seededRandom(seed = Math.floor(Math.random() * 2 ** 31)): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    integer: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
