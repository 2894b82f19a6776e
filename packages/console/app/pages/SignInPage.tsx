// Sign in by pasting an API key; the key stays in this tab's sessionStorage.
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorAlert } from '../components/ErrorAlert.js';

/** Props of {@link SignInPage}. */
export interface SignInPageProps {
  /** Checks the key (GET /v1/principal) and signs in; rejects with the API's refusal. */
  onSignIn: (key: string) => Promise<void>;
  /** Why the user is here (e.g. a revoked key), shown as an alert. */
  notice?: unknown;
}

/** The sign-in page. */
export function SignInPage({ onSignIn, notice = null }: SignInPageProps) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(notice);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setError(new Error('Paste an API key (pr_test_… or pr_live_…).'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSignIn(trimmed);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1 tabIndex={-1} ref={heading}>
        Sign in
      </h1>
      <p>
        Paste an API key of your account. It is kept in this browser tab only and sent only as an{' '}
        <code>Authorization</code> header.
      </p>
      <form onSubmit={(event) => void submit(event)} class="stack">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="text"
          class="secret"
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          aria-describedby="api-key-hint"
        />
        <p id="api-key-hint" class="hint">
          <code>programrun serve</code> prints a test key when it starts.
        </p>
        <ErrorAlert error={error} />
        <div>
          <button type="submit" class="primary" disabled={busy}>
            Sign in
          </button>
        </div>
      </form>
    </main>
  );
}
