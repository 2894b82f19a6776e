// The environment clock relative to this browser's: in test, runs live on the account's
// test clock (which test helpers move), so deadlines count down from its `now`.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { TestClock } from '../../api/types.js';

/** Milliseconds to add to `Date.now()` for the environment's now (0 in live). */
export function useClockOffset(test: boolean, refreshKey: string): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    if (!test) return;
    const controller = new AbortController();
    const asked = Date.now();
    api.get<TestClock>('/v1/test_helpers/clock', undefined, controller.signal).then(
      (clock) => {
        const now = Date.parse(clock.now);
        if (!Number.isNaN(now)) setOffset(now - (asked + Date.now()) / 2);
      },
      () => setOffset(0),
    );
    return () => controller.abort();
  }, [test, refreshKey]);
  return offset;
}

/** `Date.now()` plus `offset`, ticking every second. */
export function useNow(offset: number): number {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    const timer = setInterval(() => setNow(Date.now() + offset), 1000);
    return () => clearInterval(timer);
  }, [offset]);
  return now;
}
