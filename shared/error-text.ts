/** The text for every error code (docs/api.md, Answers and errors): the server's refusals and the client's fallback. */
import { ART_LIMITS, AVATAR_LIMITS } from './constants.ts';
import type { ErrorCode } from './errors.ts';

/** "16 MB" of a limit in bytes. */
const megabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export const ERROR_TEXT: Record<ErrorCode, string> = {
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
  payload_too_large: `That file is too large for the server. A picture of a piece may be up to ${megabytes(ART_LIMITS.maxImageBytes)}, a profile picture up to ${megabytes(AVATAR_LIMITS.maxBytes)}: choose a smaller one and try again.`,
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
  pictures_locked: 'The images of a published piece can only be changed by our team. Write to us to ask.',
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
