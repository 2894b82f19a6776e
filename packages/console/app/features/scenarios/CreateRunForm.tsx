// "Create a test run": a form generated from the scenario's inputs JSON Schema, prefilled
// with its example inputs. Creating posts the run (with an Idempotency-Key, the same one
// when the same run is retried) and opens its page; the API's refusal shows its detail,
// and each problem's pointer next to the field it names.
import type { TargetedSubmitEvent } from 'preact';
import { useId, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/api-error.js';
import { api } from '../../api/client.js';
import type { ProgramRun, Scenario } from '../../api/types.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { href, navigate } from '../../routing/navigation.js';
import { placeProblems, problemFields, type ProblemField } from './problem-fields.js';
import { SchemaField } from './SchemaField.js';
import {
  formFields,
  formInputs,
  formValues,
  leafFields,
  type FormField,
  type FormValues,
} from './schema-form.js';

/** Props of {@link CreateRunForm}. */
export interface CreateRunFormProps {
  scenario: Scenario;
}

const NO_PROBLEMS: ReadonlyMap<string, readonly ProblemField[]> = new Map();

/** A session for the run, so that its evidence can be requested and exported. */
const newSessionId = (): string => `sess_console_${crypto.randomUUID().replace(/-/g, '')}`;

/** The form. */
export function CreateRunForm({ scenario }: CreateRunFormProps) {
  const id = useId();
  const fields = useMemo(() => formFields(scenario.input_schema), [scenario.input_schema]);
  // Control ids by field key (groups too), unique on the page whatever the property names.
  const ids = useMemo(() => {
    const map = new Map<string, string>();
    const walk = (list: readonly FormField[]): void => {
      for (const field of list) {
        map.set(field.key, `${id}-f${map.size}`);
        if (field.kind === 'group') walk(field.fields);
      }
    };
    walk(fields);
    return map;
  }, [fields, id]);
  const idOf = (key: string): string => ids.get(key) ?? `${id}-none`;
  const [values, setValues] = useState<FormValues>(() =>
    formValues(fields, scenario.example_inputs),
  );
  const [sessionId, setSessionId] = useState(newSessionId);
  const [problems, setProblems] = useState(NO_PROBLEMS);
  const [other, setOther] = useState<readonly ProblemField[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The key of the last attempt: a retry of the same body reuses it (never two runs).
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const onChange = (key: string, value: string | boolean) =>
    setValues((current) => ({ ...current, [key]: value }));

  const focusFirst = (keys: readonly string[]) => {
    const first = leafFields(fields).find((field) => keys.includes(field.key));
    if (first) document.getElementById(idOf(first.key))?.focus();
  };

  const submit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setOther([]);
    const built = formInputs(fields, values);
    if (!built.ok) {
      const placed = placeProblems(
        fields,
        built.errors.map(({ key, message }) => ({ pointer: `/inputs${key}`, message })),
      );
      setProblems(placed.byKey);
      setError(new Error('Some inputs cannot be read: see the marked fields.'));
      focusFirst(built.errors.map(({ key }) => key));
      return;
    }
    setProblems(NO_PROBLEMS);
    const body = {
      scenario_id: scenario.id,
      inputs: built.inputs,
      ...(sessionId.trim() !== '' ? { session_id: sessionId.trim() } : {}),
    };
    const text = JSON.stringify(body);
    if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
    setBusy(true);
    api.post<ProgramRun>('/v1/program-runs', body, { idempotencyKey: attempt.current.key }).then(
      (run) => navigate(href({ name: 'run', id: run.id })),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
        if (failure instanceof ApiError) {
          const placed = placeProblems(fields, problemFields(failure.problem));
          setProblems(placed.byKey);
          setOther(placed.other);
          focusFirst([...placed.byKey.keys()]);
        }
      },
    );
  };

  return (
    <form class="stack create-run" aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h2 id={`${id}-title`}>Create a test run</h2>
      <p class="hint">
        Prefilled with the scenario's example inputs. Required fields are marked with an asterisk
        (*); amounts are decimal text.
      </p>
      <fieldset class="schema-group">
        <legend>Inputs</legend>
        {fields.map((field) => (
          <SchemaField
            key={field.key}
            field={field}
            values={values}
            onChange={onChange}
            problems={problems}
            idOf={idOf}
          />
        ))}
      </fieldset>
      <div class="field">
        <label for={`${id}-session`}>Session id</label>
        <input
          id={`${id}-session`}
          type="text"
          autocomplete="off"
          spellcheck={false}
          aria-describedby={`${id}-session-hint`}
          value={sessionId}
          onInput={(event) => setSessionId(event.currentTarget.value)}
        />
        <p class="hint" id={`${id}-session-hint`}>
          Links the run to a client session: an access request for the session lets its runs export
          evidence. Leave empty for none.
        </p>
      </div>
      <ErrorAlert error={error} />
      {other.length > 0 ? (
        <ul class="field-problems">
          {other.map(({ pointer, message }) => (
            <li key={`${pointer} ${message}`}>
              <code>{pointer || '/'}</code> {message}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Create test run
        </button>
      </div>
    </form>
  );
}
