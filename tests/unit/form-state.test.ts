import { describe, expect, it } from 'vitest';
import { accountSchema, loginSchema, registrationSchema } from '#shared/validation/account.ts';
import { ErrorCode } from '#shared/errors.ts';
import { errorBodyOf, failureOf, validate } from '#client/forms/form-state.ts';
import { errorMessageFor, errorMessages, messages } from '#client/locale/messages.ts';
import { submitFailureOf } from '#client/editor/submit-art.ts';
import { ART_LIMITS, AVATAR_LIMITS } from '#shared/constants.ts';

/** What a failed tRPC call looks like to the client: the app's error body sits in data.app. */
const trpcError = (app: unknown) =>
  Object.assign(new Error('failed'), { data: { code: 'BAD_REQUEST', httpStatus: 400, app } });

const REGISTRATION_FIELDS = ['firstname', 'lastname', 'email', 'password'];

describe('checking a form with the shared schema', () => {
  it('shows the first failing rule of each field beside it, with the server’s wording', () => {
    const result = validate(
      registrationSchema,
      { firstname: '  ', lastname: 'Hopper', email: 'not-an-address', password: 'abc' },
      REGISTRATION_FIELDS,
    );
    expect(result).toEqual({
      ok: false,
      failure: {
        fieldErrors: {
          firstname: 'First name cannot be blank.',
          email: 'Invalid email address.',
          password: 'Minimal length is 6 symbols.',
        },
        message: null,
      },
    });
  });

  it('asks for a number or special sign in a long enough password', () => {
    const result = validate(
      registrationSchema,
      { firstname: 'Ada', lastname: 'Hopper', email: 'ada@example.com', password: 'abcdefgh' },
      REGISTRATION_FIELDS,
    );
    expect(!result.ok && result.failure.fieldErrors).toEqual({
      password: 'There must be at least one number or special sign.',
    });
  });

  it('gives the trimmed values to send when the form is valid', () => {
    const result = validate(
      registrationSchema,
      { firstname: ' Ada ', lastname: 'Hopper', email: ' ada@example.com ', password: 'secret-1' },
      REGISTRATION_FIELDS,
    );
    expect(result).toEqual({
      ok: true,
      output: { firstname: 'Ada', lastname: 'Hopper', email: 'ada@example.com', password: 'secret-1' },
    });
  });

  it('puts every error in one message in single mode (login)', () => {
    const result = validate(loginSchema, { username: '', password: '' }, ['username', 'password'], 'single');
    expect(result).toEqual({
      ok: false,
      failure: { fieldErrors: {}, message: 'Email cannot be blank. Password cannot be blank.' },
    });
  });

  it('shows a mismatched password confirmation beside the confirm field', () => {
    const values = {
      firstname: 'Ada',
      lastname: 'Hopper',
      email: 'ada@example.com',
      show_email: false,
      password: 'secret-1',
      confirm_password: 'secret-2',
    };
    const result = validate(accountSchema, values, Object.keys(values));
    expect(!result.ok && result.failure.fieldErrors).toEqual({
      confirm_password: 'The password confirmation does not match.',
    });
  });

  it('accepts an account form that leaves the password empty', () => {
    const values = {
      firstname: 'Ada',
      lastname: 'Hopper',
      email: 'ada@example.com',
      show_email: true,
      password: '',
      confirm_password: '',
    };
    expect(validate(accountSchema, values, Object.keys(values)).ok).toBe(true);
  });
});

describe('reading a failed call', () => {
  it('finds the app error body in a tRPC error and in a REST answer', () => {
    const body = { error: ErrorCode.RateLimited, message: 'Too many attempts.' };
    expect(errorBodyOf(trpcError(body))).toEqual(body);
    expect(errorBodyOf({ r: body })).toEqual(body);
  });

  it('finds nothing in a network failure or a foreign answer', () => {
    expect(errorBodyOf(new TypeError('Failed to fetch'))).toBeNull();
    expect(errorBodyOf({ data: { app: { nope: true } } })).toBeNull();
    expect(errorBodyOf(null)).toBeNull();
    expect(errorBodyOf('boom')).toBeNull();
    expect(errorBodyOf({ r: null, status: 502 })).toBeNull();
  });

  it('reads a proxy’s 413 (an HTML page, no body of ours) as payload_too_large; our own 413 body is kept', () => {
    expect(errorBodyOf({ r: null, status: 413 })).toEqual({ error: ErrorCode.PayloadTooLarge });
    expect(errorBodyOf({ r: '<html><h1>413 Request Entity Too Large</h1></html>', status: 413 })).toEqual({
      error: ErrorCode.PayloadTooLarge,
    });
    const ours = { error: ErrorCode.PayloadTooLarge, message: 'File size should not be more than 16Mb.' };
    expect(errorBodyOf({ r: ours, status: 413 })).toEqual(ours);
  });
});

describe('an upload refused as too large by a proxy (HTTP 413, no body of ours)', () => {
  const refused = { r: null, status: 413 };

  it('says the file is too large for the server and how large may be sent, on a form and in the editor', () => {
    const text = errorMessages.payload_too_large;
    expect(text).toBe(
      'That file is too large for the server. A picture of a piece may be up to 16 MB, a profile picture up to 8 MB: choose a smaller one and try again.',
    );
    expect(text).toContain(`${ART_LIMITS.maxImageBytes / 2 ** 20} MB`);
    expect(text).toContain(`${AVATAR_LIMITS.maxBytes / 2 ** 20} MB`);
    expect(failureOf(refused, ['description'])).toEqual({ fieldErrors: {}, message: text });
    expect(submitFailureOf(refused)).toEqual({ message: text, fieldErrors: {} });
  });
});

describe('showing a failed call on a form', () => {
  it('puts the errors of the form’s fields beside them, joining each field’s messages with a space', () => {
    const error = trpcError({
      error: ErrorCode.ValidationFailed,
      message: 'Some fields are not valid.',
      errors: {
        email: ['Invalid email address.', 'Maximal length is 128 symbols.'],
        password: ['Minimal length is 6 symbols.'],
      },
    });
    expect(failureOf(error, REGISTRATION_FIELDS)).toEqual({
      fieldErrors: {
        email: 'Invalid email address. Maximal length is 128 symbols.',
        password: 'Minimal length is 6 symbols.',
      },
      message: null,
    });
  });

  it('keeps the server’s message beside the field errors in fields-and-message mode (contact), other errors after it', () => {
    const error = trpcError({
      error: ErrorCode.ValidationFailed,
      message: 'Some fields are not valid.',
      errors: {
        email: ['Invalid email address.'],
        message: ['Maximal length is 4096 symbols.'],
        token: ['Malformed token.'],
      },
    });
    expect(failureOf(error, ['email', 'reason', 'subject', 'message'], 'fields-and-message')).toEqual({
      fieldErrors: { email: 'Invalid email address.', message: 'Maximal length is 4096 symbols.' },
      message: 'Some fields are not valid. Malformed token.',
    });
    // Without a message of its own, the code's locale text stands in for it.
    expect(
      failureOf(
        trpcError({ error: ErrorCode.ValidationFailed, errors: { email: ['Invalid email address.'] } }),
        ['email'],
        'fields-and-message',
      ),
    ).toEqual({
      fieldErrors: { email: 'Invalid email address.' },
      message: errorMessages.validation_failed,
    });
  });

  it('shows errors of fields the form does not have as the form message', () => {
    const error = trpcError({
      error: ErrorCode.ValidationFailed,
      errors: { token: ['Malformed token.'], email: ['Invalid email address.'] },
    });
    expect(failureOf(error, REGISTRATION_FIELDS)).toEqual({
      fieldErrors: { email: 'Invalid email address.' },
      message: 'Malformed token.',
    });
  });

  it('shows the server’s message when there are no field errors', () => {
    const error = trpcError({ error: ErrorCode.InvalidCredentials, message: 'Wrong e-mail address or password.' });
    expect(failureOf(error, ['username', 'password'])).toEqual({
      fieldErrors: {},
      message: 'Wrong e-mail address or password.',
    });
  });

  it('falls back to the locale text of the code when the server sent no message', () => {
    const error = trpcError({ error: ErrorCode.Internal });
    expect(failureOf(error, REGISTRATION_FIELDS)).toEqual({ fieldErrors: {}, message: errorMessages.internal_error });
  });

  it('falls back to the undefined error message when nothing is known', () => {
    expect(failureOf(new TypeError('Failed to fetch'), REGISTRATION_FIELDS)).toEqual({
      fieldErrors: {},
      message: messages.undefinedError,
    });
    expect(failureOf(trpcError({ error: 'some_new_code' }), REGISTRATION_FIELDS).message).toBe(messages.undefinedError);
    expect(
      failureOf(trpcError({ error: ErrorCode.BadRequest, message: '   ', errors: { email: [''] } }), ['email']).message,
    ).toBe(errorMessages.bad_request);
  });

  it('puts every error in the one message in single mode (login, reset password)', () => {
    const error = trpcError({
      error: ErrorCode.ValidationFailed,
      message: 'Some fields are not valid.',
      errors: { username: ['Invalid email address.'], password: ['Password cannot be blank.'] },
    });
    expect(failureOf(error, ['username', 'password'], 'single')).toEqual({
      fieldErrors: {},
      message: 'Invalid email address. Password cannot be blank.',
    });
  });
});

describe('the locale table', () => {
  it('has a message for every error code', () => {
    for (const code of Object.values(ErrorCode)) expect(errorMessageFor(code)).toMatch(/\S/);
  });

  it('knows nothing of codes it was not given', () => {
    expect(errorMessageFor('toString')).toBeUndefined();
    expect(errorMessageFor(undefined)).toBeUndefined();
  });
});
