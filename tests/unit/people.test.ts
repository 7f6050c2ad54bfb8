/** A member's name as every page, e-mail and feed shows it. */
import { describe, expect, it } from 'vitest';
import { personName } from '#shared/people.ts';

describe('personName', () => {
  it('joins first and last name, without stray spaces', () => {
    expect(personName({ firstname: 'Ada', lastname: 'Byron' })).toBe('Ada Byron');
    expect(personName({ firstname: 'Ada', lastname: '' })).toBe('Ada');
    expect(personName({ firstname: '', lastname: 'Byron' })).toBe('Byron');
  });

  it("says the page's fallback when there is no name at all", () => {
    expect(personName({ firstname: '', lastname: '' })).toBe('');
    expect(personName({ firstname: ' ', lastname: '' }, 'An artist')).toBe('An artist');
  });
});
