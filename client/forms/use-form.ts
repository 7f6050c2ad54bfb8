/**
 * The form kit's hook: values, the shared schema check before any request, field errors and one form message
 * (an error or a success), and the in-progress flag that disables submit (decision 007). Editing a field clears its
 * error and the messages.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type * as v from 'valibot';
import { failureOf, validate, type ErrorMode, type FieldMessages } from './form-state.ts';

export type FormValue = string | boolean;

export interface FormNotice {
  kind: 'error' | 'success';
  text: string;
}

export interface UseFormOptions<TValues extends Record<string, FormValue>, TOutput> {
  initialValues: TValues;
  /** The form's shared valibot schema; what it outputs (trimmed values) is what gets sent. */
  schema: v.GenericSchema<unknown, TOutput>;
  /** Sends the checked values; a thrown error is shown (see failureOf), unless describeError says otherwise. */
  onSubmit: (output: TOutput, actions: FormActions<TValues>) => Promise<void>;
  errorMode?: ErrorMode;
  /** Replaces the usual error display for a failed call (restore password shows one fixed message). */
  describeError?: (error: unknown) => string;
}

/** What a submit handler may do to its form once the call succeeded. */
export interface FormActions<TValues extends Record<string, FormValue>> {
  /** Replaces values without touching errors (e.g. with the record the server saved). */
  resetValues: (values: TValues) => void;
  /** Shows a success message, hidden again after `hideAfterMs` when given. */
  showSuccess: (text: string, hideAfterMs?: number) => void;
}

export interface Form<TValues extends Record<string, FormValue>> extends FormActions<TValues> {
  values: TValues;
  fieldErrors: FieldMessages;
  notice: FormNotice | null;
  submitting: boolean;
  setValue: <K extends keyof TValues & string>(name: K, value: TValues[K]) => void;
  handleSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

export function useForm<TValues extends Record<string, FormValue>, TOutput>(
  options: UseFormOptions<TValues, TOutput>,
): Form<TValues> {
  const [values, setValues] = useState(options.initialValues);
  const [fieldErrors, setFieldErrors] = useState<FieldMessages>({});
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A second click before the disabled button has rendered must not send twice.
  const inFlight = useRef(false);
  const latest = useRef(options);
  latest.current = options;

  const clearTimer = () => {
    if (hideTimer.current !== null) clearTimeout(hideTimer.current);
    hideTimer.current = null;
  };
  useEffect(() => clearTimer, []);

  const setValue = useCallback(<K extends keyof TValues & string>(name: K, value: TValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setFieldErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
    clearTimer();
    setNotice(null);
  }, []);

  const showSuccess = useCallback((text: string, hideAfterMs?: number) => {
    clearTimer();
    setNotice({ kind: 'success', text });
    if (hideAfterMs !== undefined) {
      hideTimer.current = setTimeout(() => {
        hideTimer.current = null;
        setNotice((current) => (current?.kind === 'success' ? null : current));
      }, hideAfterMs);
    }
  }, []);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const { schema, onSubmit, errorMode = 'fields', describeError } = latest.current;
    const fields = Object.keys(values);
    const formElement = event.currentTarget;
    clearTimer();
    const checked = validate(schema, values, fields, errorMode);
    if (!checked.ok) {
      setFieldErrors(checked.failure.fieldErrors);
      setNotice(checked.failure.message ? { kind: 'error', text: checked.failure.message } : null);
      focusFirstInvalid(formElement);
      return;
    }
    setFieldErrors({});
    setNotice(null);
    inFlight.current = true;
    setSubmitting(true);
    onSubmit(checked.output, { resetValues: setValues, showSuccess })
      .catch((error: unknown) => {
        if (describeError) {
          setNotice({ kind: 'error', text: describeError(error) });
          return;
        }
        const failure = failureOf(error, fields, errorMode);
        setFieldErrors(failure.fieldErrors);
        setNotice(failure.message ? { kind: 'error', text: failure.message } : null);
        if (Object.keys(failure.fieldErrors).length > 0) focusFirstInvalid(formElement);
      })
      .finally(() => {
        inFlight.current = false;
        setSubmitting(false);
      });
  };

  return { values, fieldErrors, notice, submitting, setValue, resetValues: setValues, showSuccess, handleSubmit };
}

/** After the errors have rendered, takes the keyboard (and a screen reader) to the first field that needs fixing. */
function focusFirstInvalid(form: HTMLFormElement): void {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
