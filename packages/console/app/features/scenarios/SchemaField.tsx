// One control of the "Create a test run" form, from a field of the inputs schema: text,
// select, checkbox, list or JSON, or a fieldset of nested ones. Labelled by the property
// path; hints, the description and any problem are tied to the control.
import type { ComponentChildren } from 'preact';
import type { ProblemField } from './problem-fields.js';
import type { FormField, FormValues } from './schema-form.js';

/** Props of {@link SchemaField}. */
export interface SchemaFieldProps {
  field: FormField;
  values: FormValues;
  onChange: (key: string, value: string | boolean) => void;
  /** Problems by field key (the API's, or text that does not fit the type). */
  problems: ReadonlyMap<string, readonly ProblemField[]>;
  /** The id of a control, unique on the page, by field key. */
  idOf: (key: string) => string;
}

function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <span class="required-mark" aria-hidden="true" title="required">
      {' '}
      *
    </span>
  ) : null;
}

function Problems({ id, list }: { id: string; list: readonly ProblemField[] }) {
  return (
    <ul class="field-problems" id={id}>
      {list.map(({ pointer, message }) => (
        <li key={`${pointer} ${message}`}>
          <code>{pointer}</code> {message}
        </li>
      ))}
    </ul>
  );
}

/** The words under a control: description and hints. */
function Hints({ field, id }: { field: FormField; id: string }) {
  const words = [field.description, ...field.hints].filter((word) => word !== null);
  return words.length === 0 ? null : (
    <p class="hint" id={id}>
      {words.join(' · ')}
    </p>
  );
}

/** One field (or a group of them). */
export function SchemaField(props: SchemaFieldProps) {
  const { field, values, onChange, problems, idOf } = props;
  const id = idOf(field.key);
  const list = problems.get(field.key) ?? [];
  const hintsId = `${id}-hints`;
  const problemsId = `${id}-problems`;
  const describedBy =
    [
      field.description !== null || field.hints.length > 0 ? hintsId : null,
      list.length > 0 ? problemsId : null,
    ]
      .filter((one) => one !== null)
      .join(' ') || undefined;
  const common = {
    id,
    name: field.label,
    'aria-required': field.required,
    'aria-invalid': list.length > 0,
    'aria-describedby': describedBy,
  };
  const text = (): string => {
    const value = values[field.key];
    return typeof value === 'string' ? value : '';
  };
  const wrap = (control: ComponentChildren, inline = false) => (
    <div class={inline ? 'field field-inline schema-field' : 'field schema-field'}>
      {inline ? control : null}
      {/* The mark stays out of the label: the control is named by the property path alone. */}
      <span class="field-label">
        <label for={id}>{field.label}</label>
        <RequiredMark required={field.required} />
      </span>
      {inline ? null : control}
      <Hints field={field} id={hintsId} />
      {list.length > 0 ? <Problems id={problemsId} list={list} /> : null}
    </div>
  );

  switch (field.kind) {
    case 'group':
      return (
        <fieldset class="schema-group" aria-describedby={describedBy}>
          <legend>
            {field.label}
            <RequiredMark required={field.required} />
          </legend>
          <Hints field={field} id={hintsId} />
          {list.length > 0 ? <Problems id={problemsId} list={list} /> : null}
          {field.fields.map((child) => (
            <SchemaField key={child.key} {...props} field={child} />
          ))}
        </fieldset>
      );
    case 'checkbox':
      return wrap(
        <input
          {...common}
          type="checkbox"
          checked={values[field.key] === true}
          onChange={(event) => onChange(field.key, event.currentTarget.checked)}
        />,
        true,
      );
    case 'select':
      return wrap(
        <select
          {...common}
          value={text()}
          onChange={(event) => onChange(field.key, event.currentTarget.value)}
        >
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>,
      );
    case 'json':
      return wrap(
        <textarea
          {...common}
          rows={4}
          spellcheck={false}
          value={text()}
          onInput={(event) => onChange(field.key, event.currentTarget.value)}
        />,
      );
    case 'text':
    case 'list':
      return wrap(
        <input
          {...common}
          type="text"
          inputMode={
            field.kind === 'text' && field.type !== 'string'
              ? field.type === 'integer'
                ? 'numeric'
                : 'decimal'
              : undefined
          }
          autocomplete="off"
          spellcheck={false}
          value={text()}
          onInput={(event) => onChange(field.key, event.currentTarget.value)}
        />,
      );
  }
}
