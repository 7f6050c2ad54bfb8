/**
 * Reset password ('reset password.'): asks for the account's e-mail address and mails a link to choose a new
 * password. The answer is the same whether or not the address has an account (decision 006); errors show as one
 * message (decision 007).
 */
import { Link } from '#client/router/react.tsx';
import { ACCOUNT_LIMITS } from '#shared/constants.ts';
import { resetRequestSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { FormMessage, SubmitButton, TextField } from '#client/forms/fields.tsx';
import { FormPage } from '#client/forms/form-page.tsx';
import { useForm } from '#client/forms/use-form.ts';
import { messages } from '#client/locale/messages.ts';

export function ResetPasswordPage() {
  const requestReset = trpc.auth.requestReset.useMutation();
  const form = useForm({
    initialValues: { username: '' },
    schema: resetRequestSchema,
    errorMode: 'single',
    onSubmit: async (input, { showSuccess }) => {
      await requestReset.mutateAsync(input);
      showSuccess(messages.resetPassword);
    },
  });

  return (
    <FormPage
      title="reset password."
      lead="Forgot your password? Tell us the address you registered with and we will e-mail you a link to choose a new one."
      links={
        <>
          <Link to="/login">login.</Link>
          <Link to="/registration">register.</Link>
        </>
      }
    >
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Reset password">
        <TextField
          form={form}
          name="username"
          label="Email address"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          maxLength={ACCOUNT_LIMITS.email}
          invalid={form.notice?.kind === 'error'}
        />
        <FormMessage notice={form.notice} />
        <SubmitButton submitting={form.submitting} busyLabel="Sending…">
          Send the link
        </SubmitButton>
      </form>
    </FormPage>
  );
}
