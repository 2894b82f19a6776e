// A read of the API repeated every few seconds while the page shows it (the inbox, the
// test clock): a newer read always wins over a slower older one, and nothing is scheduled
// once the page is gone.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** What {@link useRefreshing} gives the page. */
export interface Refreshing<T> {
  /** The last value read; null before the first answer. */
  readonly value: T | null;
  /** Why the last read failed; null when it succeeded. */
  readonly error: unknown;
  /** Reads again now (after an action), restarting the interval. */
  readonly reload: () => void;
}

/**
 * Reads with `read` now and `everyMs` after each answer, while `enabled`. `read` must be
 * stable (wrap it in `useCallback`): a new `read` starts over.
 */
export function useRefreshing<T>(
  read: () => Promise<T>,
  everyMs: number,
  enabled = true,
): Refreshing<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const generation = useRef(0);

  const reload = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    const current = (generation.current += 1);
    read()
      .then(
        (answer) => {
          if (current !== generation.current) return;
          setValue(answer);
          setError(null);
        },
        (failure: unknown) => current === generation.current && setError(failure),
      )
      .finally(() => {
        if (current === generation.current) timer.current = setTimeout(reload, everyMs);
      });
  }, [read, everyMs]);

  useEffect(() => {
    if (!enabled) return;
    reload();
    return () => {
      generation.current += 1;
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [reload, enabled]);

  return { value, error, reload };
}
