/**
 * The form kit's parts: labelled text, multi-line text and dropdown fields with their hint and error beside them, a
 * checkbox, the form message (an error or a success, announced to screen readers) and the submit button. Each field
 * is wired to a useForm.
 */
import { useId, type ReactNode } from 'react';
import type { Form, FormNotice, FormValue } from './use-form.ts';
import './forms.css';

type StringKeys<TValues> = { [K in keyof TValues]: TValues[K] extends string ? K : never }[keyof TValues] & string;
type BooleanKeys<TValues> = { [K in keyof TValues]: TValues[K] extends boolean ? K : never }[keyof TValues] & string;

interface FrameProps<TValues extends Record<string, FormValue>> {
  form: Form<TValues>;
  name: StringKeys<TValues>;
  label: string;
  hint?: ReactNode;
}

export interface TextFieldProps<TValues extends Record<string, FormValue>> extends FrameProps<TValues> {
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
  /** In a form that shows every error as one message, the field is only marked invalid. */
  invalid?: boolean;
  autoFocus?: boolean;
}

interface ControlWiring {
  id: string;
  invalid: true | undefined;
  describedBy: string | undefined;
}

/** Label, control and the error and hint beside it; `control` gets the ids it must carry. */
function FieldFrame<TValues extends Record<string, FormValue>>({
  form,
  name,
  label,
  hint,
  control,
}: FrameProps<TValues> & { control: (wiring: ControlWiring) => ReactNode }) {
  const id = useId();
  const error = form.fieldErrors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control({
        id,
        invalid: error ? true : undefined,
        describedBy: [errorId, hintId].filter(Boolean).join(' ') || undefined,
      })}
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

export function TextField<TValues extends Record<string, FormValue>>(props: TextFieldProps<TValues>) {
  const { form, name, type = 'text' } = props;
  return (
    <FieldFrame
      {...props}
      control={({ id, invalid, describedBy }) => (
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
          aria-invalid={invalid ?? (props.invalid ? true : undefined)}
          aria-describedby={describedBy}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- only the first field of a form a person has just opened to fill in asks for it
          autoFocus={props.autoFocus}
        />
      )}
    />
  );
}

export function TextAreaField<TValues extends Record<string, FormValue>>(
  props: FrameProps<TValues> & { maxLength: number; rows?: number },
) {
  const { form, name, maxLength, rows = 5 } = props;
  return (
    <FieldFrame
      {...props}
      control={({ id, invalid, describedBy }) => (
        <textarea
          id={id}
          className="field__input field__textarea"
          name={name}
          rows={rows}
          value={form.values[name] as string}
          onChange={(event) => form.setValue(name, event.currentTarget.value as TValues[typeof name])}
          maxLength={maxLength}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    />
  );
}

interface SelectOption {
  value: string;
  label: string;
}

export function SelectField<TValues extends Record<string, FormValue>>(
  props: FrameProps<TValues> & {
    options: readonly SelectOption[];
    placeholder: string;
    onChoose?: (value: string) => void;
    autoComplete?: string;
  },
) {
  const { form, name, options, placeholder, onChoose, autoComplete } = props;
  const value = form.values[name] as string;
  return (
    <FieldFrame
      {...props}
      control={({ id, invalid, describedBy }) => (
        <select
          id={id}
          className="field__input field__select"
          name={name}
          value={value}
          autoComplete={autoComplete}
          onChange={(event) =>
            onChoose
              ? onChoose(event.currentTarget.value)
              : form.setValue(name, event.currentTarget.value as TValues[typeof name])
          }
          aria-invalid={invalid}
          aria-describedby={describedBy}
        >
          {/* The placeholder is offered only while nothing is chosen. */}
          {value === '' && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

export interface CheckboxFieldProps<TValues extends Record<string, FormValue>> {
  form: Form<TValues>;
  name: BooleanKeys<TValues>;
  label: ReactNode;
}

export function CheckboxField<TValues extends Record<string, FormValue>>({
  form,
  name,
  label,
}: CheckboxFieldProps<TValues>) {
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

export function SubmitButton({
  submitting,
  children,
  busyLabel,
}: {
  submitting: boolean;
  children: ReactNode;
  busyLabel?: string;
}) {
  return (
    <button type="submit" className="button form__submit" disabled={submitting} aria-busy={submitting || undefined}>
      {submitting ? (busyLabel ?? 'Please wait…') : children}
    </button>
  );
}
