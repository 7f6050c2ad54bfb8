/** The password rules note (spec §2, §5), worded once for every form that sets a password. */
import { ACCOUNT_LIMITS as L } from '#shared/constants.ts';

export const passwordRules = `${L.passwordMin}–${L.passwordMax} characters, with at least one number or special sign.`;

export const accountPasswordNote =
  `To change your password, type a new one twice; leave both empty to keep the current one. ` +
  `A password has ${L.passwordMin}–${L.passwordMax} characters, with at least one number or special sign.`;
