/**
 * The editor's field parts, in the form kit's look (client/forms/forms.css): a labelled text box, text area, select,
 * a list of checkboxes (the multi-selects) and a radio group, each with its error beside it. The wizard's values
 * are lists and flags as well as text, so these take a value and an onChange rather than a useForm.
 */
import { useId, type ReactNode } from 'react';

interface FieldFrame {
  label: string;
  error: string | undefined;
  hint?: ReactNode;
  testId: string;
}

function FieldMessages({ id, error, hint, testId }: { id: string; error: string | undefined; hint?: ReactNode; testId: string }) {
  return (
    <>
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`error-${testId}`}>
          {error}
        </p>
      )}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error: string | undefined, hint: ReactNode) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

export function TextInput(props: FieldFrame & { value: string; maxLength?: number; inputMode?: 'decimal'; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="field__input"
        type="text"
        value={props.value}
        maxLength={props.maxLength}
        inputMode={props.inputMode}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
        data-testid={`field-${props.testId}`}
      />
      <FieldMessages id={id} error={props.error} hint={props.hint} testId={props.testId} />
    </div>
  );
}

export function TextArea(props: FieldFrame & { value: string; maxLength: number; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <textarea
        id={id}
        className="field__input editor-textarea"
        value={props.value}
        maxLength={props.maxLength}
        rows={6}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
        data-testid={`field-${props.testId}`}
      />
      <FieldMessages id={id} error={props.error} hint={props.hint} testId={props.testId} />
    </div>
  );
}

export function SelectInput(props: FieldFrame & { value: string; options: readonly (string | number)[]; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <select
        id={id}
        className="field__input"
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
        data-testid={`field-${props.testId}`}
      >
        <option value="">Choose…</option>
        {props.options.map((option) => (
          <option key={option} value={String(option)}>
            {option}
          </option>
        ))}
      </select>
      <FieldMessages id={id} error={props.error} hint={props.hint} testId={props.testId} />
    </div>
  );
}

/** A multi-select as a group of checkboxes; onChange gets the new list in the options' order (limits are the caller's). */
export function CheckList(props: FieldFrame & { values: readonly string[]; options: readonly string[]; onChange(values: string[]): void }) {
  const id = useId();
  const toggle = (option: string, on: boolean) =>
    props.onChange(on ? props.options.filter((o) => o === option || props.values.includes(o)) : props.values.filter((v) => v !== option));
  return (
    <fieldset className={props.error ? 'field editor-choices has-error' : 'field editor-choices'} aria-describedby={describedBy(id, props.error, props.hint)} data-testid={`field-${props.testId}`}>
      <legend className="field__label">{props.label}</legend>
      <div className="editor-choices__grid">
        {props.options.map((option) => (
          <label key={option} className="editor-choice">
            <input type="checkbox" checked={props.values.includes(option)} onChange={(event) => toggle(option, event.currentTarget.checked)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
      <FieldMessages id={id} error={props.error} hint={props.hint} testId={props.testId} />
    </fieldset>
  );
}

export function RadioGroup(props: FieldFrame & { value: string; options: readonly { value: string; label: string }[]; onChange(value: string): void }) {
  const id = useId();
  return (
    <fieldset className={props.error ? 'field editor-choices has-error' : 'field editor-choices'} aria-describedby={describedBy(id, props.error, props.hint)} data-testid={`field-${props.testId}`}>
      <legend className="field__label">{props.label}</legend>
      <div className="editor-choices__row">
        {props.options.map((option) => (
          <label key={option.value} className="editor-choice">
            <input type="radio" name={id} value={option.value} checked={props.value === option.value} onChange={() => props.onChange(option.value)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <FieldMessages id={id} error={props.error} hint={props.hint} testId={props.testId} />
    </fieldset>
  );
}
