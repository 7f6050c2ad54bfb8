/**
 * One password rule (shared/validation/account.ts): registration, restore, the account form (a new password), the
 * admin command and ADMIN_PASSWORD accept exactly the same passwords, with the same first message.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { accountSchema, passwordSchema, registrationSchema, restoreSchema } from '#shared/validation/account.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { generatePassword } from '#server/services/admin/admins.ts';

const CASES: [password: string, accepted: boolean][] = [
  ['abc&de', true],
  ['abcde1', true],
  ['a b c 1', true],
  ['abcdef', false], // no number or sign
  ['ab&1', false], // too short
  ['longword'.repeat(8) + '!', false], // 65 characters
  ['      ', false], // blank
  ['abcdefgh', false], // 8 letters: ADMIN_PASSWORD used to take it
  [`${'x'.repeat(63)}9`, true], // 64 characters
];

const firstMessage = (result: { success: boolean; issues?: readonly { message: string }[] }) =>
  result.success ? null : result.issues![0]!.message;
const TOKEN = 'A'.repeat(22);

describe('one password rule', () => {
  it.each(CASES)('%j: accepted %s everywhere, with the same message', (password, accepted) => {
    const rule = firstMessage(v.safeParse(passwordSchema, password));
    expect(rule === null).toBe(accepted);
    const registration = v.safeParse(registrationSchema, {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.test',
      password,
    });
    const restore = v.safeParse(restoreSchema, { token: TOKEN, password });
    const account = v.safeParse(accountSchema, {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.test',
      show_email: false,
      password,
      confirm_password: password,
    });
    for (const result of [registration, restore, account]) expect(firstMessage(result)).toBe(rule);

    const config = () => loadConfig({ ADMIN_PASSWORD: password });
    if (accepted) expect(config().adminPassword).toBe(password);
    else expect(config).toThrow(ConfigError);
  });

  it('an empty new password on the account form keeps the current one', () => {
    expect(
      v.safeParse(accountSchema, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.test',
        show_email: false,
        password: '',
        confirm_password: '',
      }).success,
    ).toBe(true);
  });

  it('the generated admin password follows the rule', () => {
    for (let i = 0; i < 20; i++) expect(v.is(passwordSchema, generatePassword())).toBe(true);
  });
});
