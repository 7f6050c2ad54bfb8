/** The return address after a login (client/app/return-path.ts): a path of this site, or welcome. */
import { describe, expect, it } from 'vitest';
import { loginPathFor, registrationPathFor, returnPathOf } from '#client/app/return-path.ts';

const ORIGIN = 'https://gallery.example';
const next = (value: string) => `?next=${encodeURIComponent(value)}`;

describe('the return address after a login', () => {
  it.each([
    ['/profile?tab=atelier', '/profile?tab=atelier'],
    ['/observe/cell/abc/reserve/def/extend', '/observe/cell/abc/reserve/def/extend'],
    ['/observe?cell=abc#x', '/observe?cell=abc#x'],
    ['//elsewhere.example/phish', '/'],
    ['/\\elsewhere.example', '/'],
    ['https://elsewhere.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
  ])('%j → %j', (given, expected) => {
    expect(returnPathOf(next(given), ORIGIN)).toBe(expected);
  });

  it('is welcome without a next, and the login path carries the page that asked', () => {
    expect(returnPathOf('', ORIGIN)).toBe('/');
    expect(loginPathFor('/profile?tab=atelier')).toBe('/login?next=%2Fprofile%3Ftab%3Datelier');
    expect(returnPathOf(loginPathFor('/profile?tab=atelier').slice('/login'.length), ORIGIN)).toBe(
      '/profile?tab=atelier',
    );
    expect(loginPathFor('/')).toBe('/login');
  });

  it('is carried by the registration path alike (a guest asked to join on a square comes back to it)', () => {
    const square = '/observe?cell=AbCdEfGhIjKlMnOpQrStUv';
    expect(registrationPathFor(square)).toBe(`/registration${next(square)}`);
    expect(returnPathOf(registrationPathFor(square).slice('/registration'.length), ORIGIN)).toBe(square);
    expect(registrationPathFor('/')).toBe('/registration');
  });
});
