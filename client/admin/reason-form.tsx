/**
 * A reason staff must give (requesting changes on a piece, declining a removal request): a labelled textarea
 * checked with the server's own schema before anything is sent, so an empty reason is refused in the page with the
 * same words the server would use.
 */
import { useId } from 'react';
import { ART_LIMITS } from '#shared/constants.ts';
import { staffReasonSchema } from '#shared/validation/admin.ts';
import { FormMessage } from '#client/forms/fields.tsx';
import { useForm } from '#client/forms/use-form.ts';
import { adminErrorText } from './admin-errors.ts';

interface ReasonFormProps {
  label: string;
  hint: string;
  submitLabel: string;
  /** Sends the trimmed reason; a thrown error is shown under the form by its code. */
  onSubmit: (reason: string) => Promise<void>;
  testId?: string;
}

export function ReasonForm({ label, hint, submitLabel, onSubmit, testId }: ReasonFormProps) {
  const id = useId();
  const form = useForm({
    initialValues: { reason: '' },
    schema: staffReasonSchema,
    onSubmit: async ({ reason }) => onSubmit(reason),
    describeError: adminErrorText,
  });
  const error = form.fieldErrors.reason;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <form className="form admin-reason" onSubmit={form.handleSubmit} noValidate data-testid={testId}>
      <div className={error ? 'field has-error' : 'field'}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <textarea
          id={id}
          name="reason"
          className="field__input field__textarea"
          rows={4}
          maxLength={ART_LIMITS.description}
          value={form.values.reason}
          onChange={(event) => form.setValue('reason', event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        />
        {error && (
          <p className="field__error" id={errorId} data-testid="error-reason">
            {error}
          </p>
        )}
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      </div>
      <FormMessage notice={form.notice} />
      <button type="submit" className="button button--danger" disabled={form.submitting} aria-busy={form.submitting || undefined}>
        {form.submitting ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
