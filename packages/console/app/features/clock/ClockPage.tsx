// "Test clock" (test keys only): the account's test clock, its next pending timer, and
// buttons that move it, firing what falls due (deadlines, waits, simulated partners).
import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { TestClock } from '../../api/types.js';
import { useCan, useTestMode } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Time } from '../../components/Time.js';
import { advancedMessage, ClockControls } from './ClockControls.js';
import { useRefreshing } from '../../api/use-refreshing.js';
import '../features.css';

/** How often the clock is read again (runs elsewhere add timers). */
const REFRESH_MS = 2000;

/** The Test clock page. */
export function ClockPage() {
  const test = useTestMode();
  const can = useCan();
  const [announcement, setAnnouncement] = useState('');
  const read = useCallback(() => api.get<TestClock>('/v1/test_helpers/clock'), []);
  const { value: clock, error, reload } = useRefreshing(read, REFRESH_MS, test);

  if (!test) {
    return (
      <>
        <h1>Test clock</h1>
        <p>The test clock belongs to test keys: live runs follow real time.</p>
      </>
    );
  }

  const onAdvanced = (state: TestClock) => {
    setAnnouncement(advancedMessage(state));
    reload();
  };

  return (
    <>
      <h1>Test clock</h1>
      <p class="hint">
        The account's test clock: timers (deadlines, waits, simulated partners' answers) fire when
        it reaches them.
      </p>
      <ErrorAlert error={error} />
      {clock === null ? (
        error === null ? (
          <p role="status">Loading the test clock…</p>
        ) : null
      ) : (
        <dl class="facts clock">
          <dt>Now</dt>
          <dd>
            <Time value={clock.now} />
          </dd>
          <dt>Next timer</dt>
          <dd>{clock.next_timer_at ? <Time value={clock.next_timer_at} /> : 'none pending'}</dd>
        </dl>
      )}
      {can('runs:write') ? (
        <ClockControls onStart={() => setAnnouncement('')} onAdvanced={onAdvanced} />
      ) : null}
      <p role="status" class="done">
        {announcement}
      </p>
    </>
  );
}
