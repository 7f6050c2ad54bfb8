/**
 * The client's locale table: a message for every error code of shared/errors.ts (docs/api.md, Answers and errors),
 * and the forms' success and fallback messages. A form prefers the server's text; these fill in where it sent none.
 */
import type { ErrorCode } from '#shared/errors.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';

export const errorMessages: Record<ErrorCode, string> = {
  bad_request: 'Something in that request was not right. Check the form and try again.',
  validation_failed: 'Some fields need another look.',
  unauthenticated: 'Please log in to do that.',
  forbidden: 'You do not have permission to do that.',
  csrf_failed: 'Your session could not be verified. Reload the page and try again.',
  not_found: 'We could not find what you were looking for.',
  tree_not_found: 'We could not find this tree.',
  cell_not_found: 'We could not find this square.',
  conflict: 'Someone got there first. Reload the page and try again.',
  rate_limited: 'Too many attempts in a short while. Please wait a few minutes and try again.',
  busy: 'The gallery is very busy right now. Please try again in a few seconds.',
  insufficient_storage: 'The gallery is out of storage space right now, so nothing was saved. Please try again later.',
  method_not_allowed: 'Something in that request was not right. Reload the page and try again.',
  unsupported_media_type: 'Something in that request was not right. Reload the page and try again.',
  invalid_credentials: 'That e-mail address and password do not match.',
  invalid_reset_token: 'This link has expired or was already used. Ask for a new one.',
  email_taken: 'This e-mail address is already registered.',
  payload_too_large: 'That file is too large.',
  internal_error: 'Something went wrong on our side. Please try again in a moment.',
  cell_not_available: 'This square cannot be reserved right now.',
  already_reserved: 'You already hold a reserved square. Upload your piece there before reserving another.',
  cell_taken: 'Someone else has just reserved this square.',
  outside_branch_area: 'Branches cannot grow at this position.',
  slot_occupied: 'This position already has a square.',
  slot_not_connected: 'A new branch square must touch a published piece.',
  slot_too_connected: 'A new branch square may touch only one published piece.',
  reservation_not_found: 'This reservation link is not valid.',
  extension_not_allowed: 'This reservation cannot be extended.',
  reservation_expired: 'This reservation has already run out.',
  already_subscribed: 'You have already asked to be told about this.',
  already_available: 'This square is available now: you can reserve it.',
  art_not_found: 'We could not find this piece.',
  main_image_locked: 'The main image of a published piece can only be changed by our team. Write to us to ask.',
  own_art: 'You cannot like your own piece.',
  connection_not_allowed: 'A piece can only connect to published pieces right next to it.',
  art_not_submitted:
    'This piece is not waiting for review any more: someone may have just reviewed it. Reload the queue.',
  removal_already_decided: 'This removal request has already been decided.',
  own_account: 'You cannot change the role of, or disable, your own account.',
  user_not_found: 'There is no member with this profile.',
  own_profile: 'You cannot like or follow yourself.',
  already_following: 'You already follow this member.',
  not_following: 'You do not follow this member.',
};

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
