// "Advance to next timer" and "Advance by <seconds>": the test clock's controls, on the
// Test clock page and in a test run's actions. The seconds are checked before anything is
// sent; the API's refusals show in role="alert".
import type { TargetedSubmitEvent } from 'preact';
import { useId, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { TestClock } from '../../api/types.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { parseAdvanceSeconds } from './advance-seconds.js';
import '../features.css';

type Advance = { to: 'next_timer' } | { seconds: number };

/** What an advance did, in words. */
export function advancedMessage(clock: TestClock): string {
  const fired = clock.timers_fired ?? 0;
  return `Advanced by ${clock.advanced_by ?? 0} s to ${clock.now}; ${fired} timer${fired === 1 ? '' : 's'} fired.`;
}

/** Props of {@link ClockControls}. */
export interface ClockControlsProps {
  /** Called when an advance starts: what the last one did is no longer news. */
  onStart: () => void;
  onAdvanced: (clock: TestClock) => void;
}

/** The buttons and the seconds field that move the account's test clock. */
export function ClockControls({ onStart, onAdvanced }: ClockControlsProps) {
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
