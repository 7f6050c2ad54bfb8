/**
 * Restore password ('restore password.'): the page an e-mailed reset link opens. It asks for a new password; after
 * success the form gives way to a success message. Any failure shows the one 'password cannot be updated' message.
 */
import { useState } from 'react';
import { Link, useParams } from '#client/router/react.tsx';
import * as v from 'valibot';
import { restoreSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { FormMessage, SubmitButton } from '#client/forms/fields.tsx';
import { FormPage } from '#client/forms/form-page.tsx';
import { NewPasswordField } from '#client/forms/new-password-field.tsx';
import { passwordRules } from '#client/forms/password-rules.ts';
import { useForm } from '#client/forms/use-form.ts';
import { messages } from '#client/locale/messages.ts';

/** The form checks the password; the token comes from the link and is checked by the server. */
const passwordOnly = v.object({ password: restoreSchema.entries.password });

export function RestorePasswordPage() {
  const { token = '' } = useParams();
  const restore = trpc.auth.restore.useMutation();
  const [done, setDone] = useState(false);
  const form = useForm({
    initialValues: { password: '' },
    schema: passwordOnly,
    describeError: () => messages.passwordCannotBeUpdated,
    onSubmit: async ({ password }) => {
      await restore.mutateAsync({ token, password });
      setDone(true);
    },
  });

  return (
    <FormPage
      title="restore password."
      lead={
        done
          ? undefined
          : 'Choose a new password for your account. Every device signed in with the old one is logged out.'
      }
      links={
        <>
          <Link to="/login">login.</Link>
          <Link to="/registration">register.</Link>
        </>
      }
    >
      {done ? (
        <div className="form-page__done">
          <p className="form-message form-message--success" role="status" data-testid="form-message">
            {messages.restorePassword}
          </p>
          <Link to="/login" className="button form__submit">
            Log in
          </Link>
        </div>
      ) : (
        <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Restore password">
          <NewPasswordField form={form} name="password" label="New password" hint={passwordRules} />
          <FormMessage notice={form.notice} />
          <SubmitButton submitting={form.submitting} busyLabel="Saving…">
            Save the new password
          </SubmitButton>
        </form>
      )}
    </FormPage>
  );
}
