/**
 * Register ('register.'): first name, last name, e-mail and password, each with its error beside it. On success the
 * new account is signed in: the current user is reloaded, then the visitor goes to welcome.
 */
import { Link, useLocation, useNavigate } from '#client/router/react.tsx';
import { ACCOUNT_LIMITS as L } from '#shared/constants.ts';
import { registrationSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { useReloadCurrentUser } from '#client/app/current-user.ts';
import { returnPathOf } from '#client/app/return-path.ts';
import { FormMessage, SubmitButton, TextField } from '#client/forms/fields.tsx';
import { FormPage } from '#client/forms/form-page.tsx';
import { NewPasswordField } from '#client/forms/new-password-field.tsx';
import { passwordRules } from '#client/forms/password-rules.ts';
import { useForm } from '#client/forms/use-form.ts';

export function RegistrationPage() {
  const register = trpc.auth.register.useMutation();
  const reloadCurrentUser = useReloadCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const form = useForm({
    initialValues: { firstname: '', lastname: '', email: '', password: '' },
    schema: registrationSchema,
    onSubmit: async (input) => {
      await register.mutateAsync(input);
      await reloadCurrentUser();
      navigate(returnPathOf(location.search), { replace: true });
    },
  });

  return (
    <FormPage
      title="register."
      lead="Join the gallery: it is free. Observe and follow artists, then reserve a square when you are ready to create."
      links={
        <span>
          Already have an account? <Link to={{ pathname: '/login', search: location.search }}>Log in.</Link>
        </span>
      }
    >
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Register">
        <div className="form-grid form-grid--two">
          <TextField form={form} name="firstname" label="First name" autoComplete="given-name" maxLength={L.name} />
          <TextField form={form} name="lastname" label="Last name" autoComplete="family-name" maxLength={L.name} />
        </div>
        <TextField
          form={form}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          maxLength={L.email}
        />
        <NewPasswordField form={form} name="password" label="Password" hint={passwordRules} />
        <FormMessage notice={form.notice} />
        <SubmitButton submitting={form.submitting} busyLabel="Creating your account…">
          Register
        </SubmitButton>
        <p className="field__hint form__fineprint">
          Before you join, you may want to read our <Link to="/terms">terms</Link> and{' '}
          <Link to="/privacy">privacy policy</Link>.
        </p>
      </form>
    </FormPage>
  );
}
