/**
 * The two field kinds the profile form needs beyond the form kit's text field: a multi-line text and a dropdown.
 * Same markup, classes and error wiring as client/forms/fields.tsx (label, control, error beside it).
 */
import { useId, type ReactNode } from 'react';
import type { Form, FormValue } from '#client/forms/use-form.ts';

type StringKeys<TValues> = { [K in keyof TValues]: TValues[K] extends string ? K : never }[keyof TValues] & string;

interface FieldProps<TValues extends Record<string, FormValue>> {
  form: Form<TValues>;
  name: StringKeys<TValues>;
  label: string;
  hint?: ReactNode;
}

/** Label, control and the error and hint beside it; `control` gets the ids it must carry. */
function FieldFrame<TValues extends Record<string, FormValue>>({
  form,
  name,
  label,
  hint,
  control,
}: FieldProps<TValues> & { control: (wiring: { id: string; invalid: true | undefined; describedBy: string | undefined }) => ReactNode }) {
  const id = useId();
  const error = form.fieldErrors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control({ id, invalid: error ? true : undefined, describedBy: [errorId, hintId].filter(Boolean).join(' ') || undefined })}
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

export function TextAreaField<TValues extends Record<string, FormValue>>(props: FieldProps<TValues> & { maxLength: number; rows?: number }) {
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

export interface SelectOption {
  value: string;
  label: string;
}

export function SelectField<TValues extends Record<string, FormValue>>(
  props: FieldProps<TValues> & { options: readonly SelectOption[]; placeholder: string; onChoose?: (value: string) => void; autoComplete?: string },
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
          onChange={(event) => (onChoose ? onChoose(event.currentTarget.value) : form.setValue(name, event.currentTarget.value as TValues[typeof name]))}
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
