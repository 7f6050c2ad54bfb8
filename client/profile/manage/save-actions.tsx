/** The end of a manage-profile form: the form's message, then its save button, saying "Saving…" while it works. */
import type { ReactNode } from 'react';
import { FormMessage, SubmitButton } from '#client/forms/fields.tsx';
import type { FormNotice } from '#client/forms/use-form.ts';

export function SaveActions({
  form,
  children,
}: {
  form: { notice: FormNotice | null; submitting: boolean };
  children: ReactNode;
}) {
  return (
    <>
      <FormMessage notice={form.notice} />
      <div className="form__actions">
        <SubmitButton submitting={form.submitting} busyLabel="Saving…">
          {children}
        </SubmitButton>
      </div>
    </>
  );
}
