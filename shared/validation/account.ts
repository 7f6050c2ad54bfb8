/** Registration, login, reset and restore, and the account form (docs/product.md, Limits), for forms and server. */
import * as v from 'valibot';
import { ACCOUNT_LIMITS as L } from '../constants.ts';
import { TOKEN_PATTERN } from './common.ts';
import { MESSAGES, anyPassword, flag, newPassword, requiredEmail, requiredText } from './rules.ts';

/**
 * The one password rule (6 to 64 characters, at least one number or sign): registration, restore, the account form (when a new password is given),
 * `npm run admin` and ADMIN_PASSWORD accept exactly these.
 */
export const passwordSchema = newPassword('Password', L.passwordMin, L.passwordMax);
const password = passwordSchema;

/** The rule in words, for the forms' notes and the start-up error. */
export const PASSWORD_RULE_TEXT = `${L.passwordMin}–${L.passwordMax} characters, with at least one number or special sign`;

export const registrationSchema = v.object({
  firstname: requiredText('First name', L.name),
  lastname: requiredText('Last name', L.name),
  email: requiredEmail('Email', L.email),
  password,
});

export const loginSchema = v.object({
  username: requiredEmail('Email', L.email),
  password: anyPassword('Password', L.passwordMax),
});

export const resetRequestSchema = v.object({
  username: requiredEmail('Email address', L.email),
});

export const restoreSchema = v.object({
  token: v.pipe(v.string(), v.regex(TOKEN_PATTERN, 'This link is not valid.')),
  password,
});

/** The account form (POST /api/user/{token}/account); an empty password leaves the password as it is. */
export const accountSchema = v.pipe(
  v.object({
    firstname: requiredText('First name', L.name),
    lastname: requiredText('Last name', L.name),
    email: requiredEmail('Email', L.email),
    show_email: flag(),
    // Empty keeps the current password; anything else must pass the one rule, with its own messages.
    password: v.pipe(
      v.optional(v.string(), ''),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || dataset.value === '') return;
        const checked = v.safeParse(passwordSchema, dataset.value);
        if (!checked.success) addIssue({ message: checked.issues[0].message });
      }),
    ),
    confirm_password: v.pipe(v.optional(v.string(), ''), v.maxLength(L.passwordMax, MESSAGES.maxLength(L.passwordMax))),
    /** Asked for (by the server) when the e-mail or the password changes: a session alone is not enough for those. */
    current_password: v.pipe(v.optional(v.string(), ''), v.maxLength(L.passwordMax, MESSAGES.maxLength(L.passwordMax))),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirm_password']],
      (input) => input.password === input.confirm_password,
      MESSAGES.passwordConfirmation,
    ),
    ['confirm_password'],
  ),
);
