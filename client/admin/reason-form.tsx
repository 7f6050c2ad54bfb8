/**
 * A reason staff must give (requesting changes on a piece, declining a removal request): a labelled textarea
 * checked with the server's own schema before anything is sent, so an empty reason is refused in the page with the
 * same words the server would use.
 */
import { ART_LIMITS } from '#shared/constants.ts';
import { staffReasonSchema } from '#shared/validation/admin.ts';
import { FormMessage, TextAreaField } from '#client/forms/fields.tsx';
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
  const form = useForm({
    initialValues: { reason: '' },
    schema: staffReasonSchema,
    onSubmit: async ({ reason }) => onSubmit(reason),
    describeError: adminErrorText,
  });
  return (
    <form className="form admin-reason" onSubmit={form.handleSubmit} noValidate data-testid={testId}>
      <TextAreaField form={form} name="reason" label={label} hint={hint} maxLength={ART_LIMITS.description} rows={4} />
      <FormMessage notice={form.notice} />
      <button
        type="submit"
        className="button button--danger"
        disabled={form.submitting}
        aria-busy={form.submitting || undefined}
      >
        {form.submitting ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
