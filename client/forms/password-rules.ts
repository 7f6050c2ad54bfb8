/** The password rules note (docs/product.md, Limits), worded once for every form that sets a password. */
import { PASSWORD_RULE_TEXT } from '#shared/validation/account.ts';

export const passwordRules = `${PASSWORD_RULE_TEXT}.`;

export const accountPasswordNote = `To change your password, type a new one twice; leave both empty to keep the current one. A password has ${PASSWORD_RULE_TEXT}.`;
