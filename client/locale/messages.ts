/**
 * The client's locale table: a message for every error code of shared/errors.ts (docs/api.md, Answers and errors),
 * and the forms' success and fallback messages. A form prefers the server's text; these fill in where it sent none.
 */
import type { ErrorCode } from '#shared/errors.ts';
import { AVATAR_MESSAGES } from '#shared/validation/avatar-messages.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

/** Every error code's text: one table for both sides (shared/error-text.ts). */
export const errorMessages: Record<ErrorCode, string> = ERROR_TEXT;

export const messages = {
  profileUpdated: 'Your profile is saved.',
  accountUpdated: 'Your account is saved.',
  resetPassword:
    'If an account uses this address, a link to choose a new password is on its way. It works once, for the next hour.',
  restorePassword: 'Your new password is set. You can log in with it now.',
  passwordCannotBeUpdated:
    'Your password cannot be updated with this link. It may have expired or been used already, so ask for a new one.',
  undefinedError: 'Something went wrong. Please check your connection and try again.',
  cellReserveError: 'This square could not be reserved just now. Please try again in a moment.',
  cellSubscribeError: 'We could not save your request just now. Please try again in a moment.',
  cellExtendReserveError: 'This reservation could not be extended.',
  subscribedToCell: 'Done. We will e-mail you as soon as this square becomes available.',
  subscribedToAny: 'Done. We will e-mail you as soon as any square becomes available.',
  avatarTooLarge: AVATAR_MESSAGES.tooBig,
  avatarWrongType: AVATAR_MESSAGES.wrongType,
} as const;

/** The locale text for an error code, or undefined for a code this client does not know. */
export function errorMessageFor(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(errorMessages, code) ? errorMessages[code as ErrorCode] : undefined;
}
