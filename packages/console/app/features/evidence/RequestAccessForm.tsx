// "Request access": a request-access lead for the run's session (POST /v1/access-requests).
// Once a lead is linked to the session, every run of that session can export its evidence.
import type { TargetedSubmitEvent } from 'preact';
import { useId, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';

/** Props of {@link RequestAccessForm}. */
export interface RequestAccessFormProps {
  sessionId: string;
  /** Called once the API recorded (or already had) a lead for the session. */
  onRequested: () => void;
}

const FIELDS = [
  { name: 'name', label: 'Name', autocomplete: 'name', maxLength: 200 },
  { name: 'email', label: 'Email', autocomplete: 'email', maxLength: 320 },
  { name: 'company', label: 'Company', autocomplete: 'organization', maxLength: 200 },
] as const;

type Values = Record<'name' | 'email' | 'company' | 'use_case', string>;

/** The form. */
export function RequestAccessForm({ sessionId, onRequested }: RequestAccessFormProps) {
  const id = useId();
  const [values, setValues] = useState<Values>({ name: '', email: '', company: '', use_case: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = (name: keyof Values) => (event: { currentTarget: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.currentTarget.value }));

  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    api.post('/v1/access-requests', { session_id: sessionId, ...values }).then(
      () => {
        setBusy(false);
        onRequested();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };

  return (
    <form class="stack request-access" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>Request access</h3>
      <p class="hint">
        Evidence of this run can be exported once a request-access lead is linked to its session{' '}
        <code>{sessionId}</code>.
      </p>
      {FIELDS.map((field) => (
        <div class="field" key={field.name}>
          <label for={`${id}-${field.name}`}>{field.label}</label>
          <input
            id={`${id}-${field.name}`}
            name={field.name}
            // The API checks the email address: its problem names what is wrong.
            type="text"
            inputMode={field.name === 'email' ? 'email' : 'text'}
            autocomplete={field.autocomplete}
            maxLength={field.maxLength}
            value={values[field.name]}
            onInput={set(field.name)}
          />
        </div>
      ))}
      <div class="field">
        <label for={`${id}-use_case`}>Use case</label>
        <textarea
          id={`${id}-use_case`}
          name="use_case"
          rows={3}
          maxLength={2000}
          value={values.use_case}
          onInput={set('use_case')}
        />
      </div>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Request access
        </button>
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}
