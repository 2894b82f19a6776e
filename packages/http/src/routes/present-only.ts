/** `T` without the `undefined` its optional properties may hold. */
export type PresentOnly<T> = { [K in keyof T]: Exclude<T[K], undefined> };

/**
 * The object without its `undefined` properties: what a parsed query's absent parameters
 * leave, made fit for options that are optional but never `undefined`.
 */
export function presentOnly<T extends object>(value: T): PresentOnly<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as PresentOnly<T>;
}
