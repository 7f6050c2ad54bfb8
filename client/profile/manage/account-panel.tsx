/**
 * ACCOUNT of manage profile: name, e-mail, whether the e-mail shows on the public profile, and a new password.
 * On success the current user is reloaded and the success message shows for a few seconds.
 */
import type { CurrentUser } from '#shared/api-types.ts';
import { ACCOUNT_LIMITS as L, TIMINGS } from '#shared/constants.ts';
import { accountSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { useReloadCurrentUser } from '#client/app/current-user.ts';
import { CheckboxField, TextField } from '#client/forms/fields.tsx';
import { NewPasswordField } from '#client/forms/new-password-field.tsx';
import { accountPasswordNote } from '#client/forms/password-rules.ts';
import { useForm } from '#client/forms/use-form.ts';
import { messages } from '#client/locale/messages.ts';
import { SaveActions } from './save-actions.tsx';

function accountValues(user: CurrentUser) {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    show_email: user.showEmail,
    password: '',
    confirm_password: '',
    current_password: '',
  };
}

export function AccountPanel({ user }: { user: CurrentUser }) {
  const updateAccount = trpc.user.updateAccount.useMutation();
  const reloadCurrentUser = useReloadCurrentUser();
  const form = useForm({
    initialValues: accountValues(user),
    schema: accountSchema,
    onSubmit: async (input, { resetValues, showSuccess }) => {
      const saved = await updateAccount.mutateAsync({ token: user.token, ...input });
      await reloadCurrentUser();
      resetValues(accountValues(saved));
      showSuccess(messages.accountUpdated, TIMINGS.successMessageMs);
    },
  });

  return (
    <div className="panel-card">
      <h2 className="panel-card__title">Your account</h2>
      <p className="panel-card__lead">The name other members see, the address we write to, and your password.</p>
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Account">
        <div className="form-grid form-grid--two">
          <TextField form={form} name="firstname" label="First name" autoComplete="given-name" maxLength={L.name} />
          <TextField form={form} name="lastname" label="Last name" autoComplete="family-name" maxLength={L.name} />
        </div>
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" maxLength={L.email} />
        <CheckboxField form={form} name="show_email" label="Show my e-mail address on my public profile" />
        <p className="form__note">{accountPasswordNote}</p>
        <div className="form-grid form-grid--two">
          <NewPasswordField form={form} name="password" label="New password" />
          <NewPasswordField form={form} name="confirm_password" label="Confirm password" />
        </div>
        <TextField
          form={form}
          name="current_password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          maxLength={L.passwordMax}
          hint="Needed only to change your e-mail address or password."
        />
        <SaveActions form={form}>Save changes</SaveActions>
      </form>
    </div>
  );
}
