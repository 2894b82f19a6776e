// "Test clock" (test keys only): the account's test clock, its next pending timer, and
// buttons that move it, firing what falls due (deadlines, waits, simulated partners).
import type { TargetedSubmitEvent } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { TestClock } from '../../api/types.js';
import { useCan, useTestMode } from '../../auth/session.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { Time } from '../../components/Time.js';
import { parseAdvanceSeconds } from './advance-seconds.js';
import '../features.css';

/** How often the clock is read again (runs elsewhere add timers). */
const REFRESH_MS = 2000;

type Advance = { to: 'next_timer' } | { seconds: number };

/** What an advance did, in words. */
function advanced(clock: TestClock): string {
  const fired = clock.timers_fired ?? 0;
  return `Advanced by ${clock.advanced_by ?? 0} s to ${clock.now}; ${fired} timer${fired === 1 ? '' : 's'} fired.`;
}

/** Props of {@link ClockControls}. */
interface ClockControlsProps {
  /** Called when an advance starts: what the last one did is no longer news. */
  onStart: () => void;
  onAdvanced: (clock: TestClock) => void;
}

function ClockControls({ onStart, onAdvanced }: ClockControlsProps) {
  const id = useId();
  const [seconds, setSeconds] = useState('60');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const advance = (body: Advance) => {
    setBusy(true);
    setError(null);
    setInvalid(null);
    onStart();
    api.post<TestClock>('/v1/test_helpers/clock/advance', body).then(
      (clock) => {
        setBusy(false);
        onAdvanced(clock);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  const advanceBy = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseAdvanceSeconds(seconds);
    if (parsed.ok) advance({ seconds: parsed.seconds });
    else setInvalid(parsed.message);
  };

  return (
    <div class="stack clock-controls">
      <div class="buttons">
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={() => advance({ to: 'next_timer' })}
        >
          Advance to next timer
        </button>
      </div>
      <form class="field field-inline" onSubmit={advanceBy}>
        <label for={`${id}-seconds`}>Seconds</label>
        <input
          id={`${id}-seconds`}
          type="text"
          inputMode="numeric"
          autocomplete="off"
          aria-invalid={invalid !== null}
          aria-describedby={invalid !== null ? `${id}-invalid` : undefined}
          value={seconds}
          onInput={(event) => setSeconds(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Advance by
        </button>
      </form>
      {invalid !== null ? (
        <p role="alert" class="alert" id={`${id}-invalid`}>
          {invalid}
        </p>
      ) : null}
      <ErrorAlert error={error} />
    </div>
  );
}

/** The Test clock page. */
export function ClockPage() {
  const test = useTestMode();
  const can = useCan();
  const [clock, setClock] = useState<TestClock | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [announcement, setAnnouncement] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const generation = useRef(0);

  const load = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    const current = (generation.current += 1);
    api
      .get<TestClock>('/v1/test_helpers/clock')
      .then(
        (state) => {
          if (current !== generation.current) return;
          setClock(state);
          setError(null);
        },
        (failure: unknown) => current === generation.current && setError(failure),
      )
      .finally(() => {
        if (current === generation.current) timer.current = setTimeout(load, REFRESH_MS);
      });
  }, []);

  useEffect(() => {
    if (!test) return;
    load();
    return () => {
      generation.current += 1;
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [load, test]);

  if (!test) {
    return (
      <>
        <h1>Test clock</h1>
        <p>The test clock belongs to test keys: live runs follow real time.</p>
      </>
    );
  }

  const onAdvanced = (state: TestClock) => {
    setAnnouncement(advanced(state));
    setClock((previous) => ({ ...previous, ...state }));
    load();
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
