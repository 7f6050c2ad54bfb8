/**
 * The field where a member chooses a password (registration, restore, account): hidden text, the browser's offer of
 * a new password, the length limit.
 */
import { ACCOUNT_LIMITS } from '#shared/constants.ts';
import { TextField, type TextFieldProps } from './fields.tsx';
import type { FormValue } from './use-form.ts';

export function NewPasswordField<TValues extends Record<string, FormValue>>(
  props: Omit<TextFieldProps<TValues>, 'type' | 'autoComplete' | 'maxLength'>,
) {
  return <TextField {...props} type="password" autoComplete="new-password" maxLength={ACCOUNT_LIMITS.passwordMax} />;
}
