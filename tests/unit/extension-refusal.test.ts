/** Why the extend page cannot extend (client/pages/extend-reservation-page.tsx): the reason, and until when. */
import { describe, expect, it } from 'vitest';
import type { ReservationDetails } from '#shared/api-types.ts';
import { extensionRefusalText } from '#client/pages/extend-reservation-page.tsx';

const details = (facts: Partial<ReservationDetails>): ReservationDetails => ({
  cellToken: 'c'.repeat(22),
  state: 'active',
  expiresAt: Date.UTC(2026, 11, 16, 23, 59, 59, 999),
  reminderCount: 1,
  updatedAt: 0,
  extended: false,
  extensionAllowed: false,
  refusal: 'extension_not_allowed',
  extendedUntil: 0,
  ...facts,
});

describe('the reason an extension is refused', () => {
  it('names the reason and the date for each case', () => {
    expect(extensionRefusalText(details({ extended: true }))).toBe(
      'This reservation has already had its one extension: the square is yours until midnight on December 16, 2026.',
    );
    expect(extensionRefusalText(details({ state: 'expired', refusal: 'reservation_expired' }))).toBe(
      'This reservation ran out at midnight on December 16, 2026.',
    );
    expect(extensionRefusalText(details({ refusal: 'reservation_expired' }))).toBe(
      'This reservation ran out at midnight on December 16, 2026.',
    );
    expect(extensionRefusalText(details({ state: 'submitted' }))).toContain('sent for review');
    expect(extensionRefusalText(details({ state: 'released' }))).toBe(
      'This reservation has ended: the square was given back.',
    );
    expect(extensionRefusalText(details({ reminderCount: 9 }))).toBe(
      'This reservation cannot be extended any more; the square is yours until midnight on December 16, 2026.',
    );
  });
});
