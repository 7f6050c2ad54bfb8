/**
 * The extend page (client/pages/extend-reservation-page.tsx) rendered without a browser, over the reservation the
 * real server answers its holder: while the one extension may be asked for, the question with the new deadline; once
 * used, or once the square ran out, why not and until when, with the way back to the tree and no form.
 */
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { EXTENSION_DAYS } from '#shared/constants.ts';
import { EXTENSION_PERIOD } from '#shared/durations.ts';
import { extendPath } from '#shared/paths.ts';
import { trpc } from '#client/api/trpc.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { ExtendReservationPage } from '#client/pages/extend-reservation-page.tsx';
import { useComponentGallery } from '../helpers/component/gallery.ts';
import { answered, renderInApp } from '../helpers/component/render.ts';

const gallery = useComponentGallery();
const ROUTE = '/observe/cell/:cellToken/reserve/:reminderToken/extend';

/** A member holding a square, the page's address for it, and the page as they see it now. */
async function holder() {
  const member = await gallery.member();
  const reserved = await member.api.cell.reserve.mutate({ token: (await gallery.availableSquare()).token });
  const input = { cellToken: reserved.token, reminderToken: reserved.reminderToken };
  const page = async () =>
    renderInApp(createElement(ExtendReservationPage), {
      path: extendPath(input.cellToken, input.reminderToken),
      route: ROUTE,
      queries: [
        ...(await gallery.viewerAnswers(member.cookie)),
        answered(trpc.cell.reservation, input, await member.api.cell.reservation.query(input)),
      ],
    });
  return { ...member, reserved, input, page };
}

describe('the extend page', () => {
  it('says it is loading until the reservation has arrived', () => {
    const page = renderInApp(createElement(ExtendReservationPage), {
      path: extendPath('c'.repeat(22), 'r'.repeat(22)),
      route: ROUTE,
    });
    const status = page.all((node) => node.attributes.class === 'extend__status')[0]!;
    expect(page.text(status)).toBe('Loading...');
    expect(status.attributes['aria-busy']).toBe('true');
  });

  it('asks whether to extend, naming the deadline the week would give, submit waiting for a choice', async () => {
    const { api, input, page } = await holder();
    const details = await api.cell.reservation.query(input);
    expect(details.extensionAllowed).toBe(true);
    const shown = await page();
    const form = shown.byTestId('extend-form');
    expect(shown.text(form)).toContain('Would you like to extend reservation of this square?');
    expect(shown.text(form)).toContain(
      `You can extend once, by ${EXTENSION_PERIOD}: the new deadline is midnight ${EXTENSION_DAYS} days after the current one, ${formatDeadlineDate(details.extendedUntil)}.`,
    );
    expect(shown.button('SUBMIT', form).attributes).toHaveProperty('disabled');
    expect(shown.has('extend-not-allowed')).toBe(false);
  });

  it('once extended, says the one extension was had and until when the square is held, with no form', async () => {
    const { api, input, page } = await holder();
    const extended = await api.cell.extendReservation.mutate(input);
    const shown = await page();
    const refusal = shown.byTestId('extend-not-allowed');
    expect(shown.text(shown.byTestId('choice-message', refusal))).toBe(
      `This reservation has already had its one extension: the square is yours until midnight on ${formatDeadlineDate(extended.expiresAt)}.`,
    );
    expect(shown.byTestId('choice-message', refusal).attributes.role).toBe('alert');
    expect(shown.button('Back to the tree', refusal)).toBeDefined();
    expect(shown.has('extend-form')).toBe(false);
  });

  it('past the deadline, says when the reservation ran out', async () => {
    const { reserved, page } = await holder();
    const { clock } = gallery.t;
    const now = clock.now();
    clock.set(reserved.expiresAt + 1);
    try {
      const shown = await page();
      expect(shown.text(shown.byTestId('choice-message', shown.byTestId('extend-not-allowed')))).toBe(
        `This reservation ran out at midnight on ${formatDeadlineDate(reserved.expiresAt)}.`,
      );
    } finally {
      clock.set(now);
    }
  });
});
