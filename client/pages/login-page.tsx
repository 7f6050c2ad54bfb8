/**
 * Login ('login.'): the e-mail address (sent as `username`, the API's name for it) and password. Every error shows as
 * one message (decision 007); on success the current user is reloaded, then the visitor goes back to the page that
 * asked them to log in (`?next=`, a path of this site) or to welcome.
 */
import { Link, useLocation, useNavigate } from '#client/router/react.tsx';
import { ACCOUNT_LIMITS } from '#shared/constants.ts';
import { loginSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { useReloadCurrentUser } from '#client/app/current-user.ts';
import { returnPathOf } from '#client/app/return-path.ts';
import { FormMessage, SubmitButton, TextField } from '#client/forms/fields.tsx';
import { FormPage } from '#client/forms/form-page.tsx';
import { useForm } from '#client/forms/use-form.ts';

export function LoginPage() {
  const login = trpc.auth.login.useMutation();
  const reloadCurrentUser = useReloadCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const form = useForm({
    initialValues: { username: '', password: '' },
    schema: loginSchema,
    errorMode: 'single',
    onSubmit: async (input) => {
      await login.mutateAsync(input);
      await reloadCurrentUser();
      navigate(returnPathOf(location.search), { replace: true });
    },
  });
  const invalid = form.notice?.kind === 'error';

  return (
    <FormPage
      title="login."
      lead="Welcome back. Log in to reserve a square, follow artists and keep your profile."
      links={
        <>
          <Link to="/reset-password">forgot password?</Link>
          <Link to={{ pathname: '/registration', search: location.search }}>register.</Link>
        </>
      }
    >
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Log in">
        <TextField
          form={form}
          name="username"
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@example.com"
          maxLength={ACCOUNT_LIMITS.email}
          invalid={invalid}
        />
        <TextField
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={ACCOUNT_LIMITS.passwordMax}
          invalid={invalid}
        />
        <FormMessage notice={form.notice} />
        <SubmitButton submitting={form.submitting} busyLabel="Logging in…">
          Log in
        </SubmitButton>
      </form>
    </FormPage>
  );
}
