/**
 * The form kit's parts: a labelled text field with its hint and error beside it, a checkbox, the form message
 * (an error or a success, announced to screen readers) and the submit button. Each field is wired to a useForm.
 */
import { useId, type ReactNode } from 'react';
import type { Form, FormNotice, FormValue } from './use-form.ts';
import './forms.css';

type StringKeys<TValues> = { [K in keyof TValues]: TValues[K] extends string ? K : never }[keyof TValues] & string;
type BooleanKeys<TValues> = { [K in keyof TValues]: TValues[K] extends boolean ? K : never }[keyof TValues] & string;

export interface TextFieldProps<TValues extends Record<string, FormValue>> {
  form: Form<TValues>;
  name: StringKeys<TValues>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
  hint?: ReactNode;
  /** In a form that shows every error as one message, the field is only marked invalid. */
  invalid?: boolean;
  autoFocus?: boolean;
}

export function TextField<TValues extends Record<string, FormValue>>(props: TextFieldProps<TValues>) {
  const { form, name, label, type = 'text', hint } = props;
  const id = useId();
  const error = form.fieldErrors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        name={name}
        type={type}
        value={form.values[name] as string}
        onChange={(event) => form.setValue(name, event.currentTarget.value as TValues[typeof name])}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        spellCheck={type === 'text' ? undefined : false}
        autoCapitalize={type === 'text' ? undefined : 'none'}
        aria-invalid={error || props.invalid ? true : undefined}
        aria-describedby={describedBy}
        autoFocus={props.autoFocus}
      />
      {error && (
        <p className="field__error" id={errorId} data-testid={`error-${name}`}>
          {error}
        </p>
      )}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

export interface CheckboxFieldProps<TValues extends Record<string, FormValue>> {
  form: Form<TValues>;
  name: BooleanKeys<TValues>;
  label: ReactNode;
}

export function CheckboxField<TValues extends Record<string, FormValue>>({ form, name, label }: CheckboxFieldProps<TValues>) {
  const id = useId();
  const error = form.fieldErrors[name];
  return (
    <div className={error ? 'field field--checkbox has-error' : 'field field--checkbox'}>
      <input
        id={id}
        className="field__checkbox"
        type="checkbox"
        name={name}
        checked={form.values[name] as boolean}
        onChange={(event) => form.setValue(name, event.currentTarget.checked as TValues[typeof name])}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <label className="field__checkbox-label" htmlFor={id}>
        {label}
      </label>
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The form-level message: an alert for an error, a polite status for a success. */
export function FormMessage({ notice }: { notice: FormNotice | null }) {
  return (
    <div className="form-message-slot">
      {notice && (
        <p
          className={`form-message form-message--${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="form-message"
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({ submitting, children, busyLabel }: { submitting: boolean; children: ReactNode; busyLabel?: string }) {
  return (
    <button type="submit" className="button form__submit" disabled={submitting} aria-busy={submitting || undefined}>
      {submitting ? (busyLabel ?? 'Please wait…') : children}
    </button>
  );
}
