/**
 * The edit-reserved-cell popup (client/popups/edit-reserved-cell-popup.tsx) rendered without a browser over what the
 * real server answers the viewer: a member whose square still holds a draft is asked to go on with it, told until
 * when the square is held and offered the one extension while it may be had; nobody else is asked, and nobody on a
 * link to something in particular.
 */
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { extendPath } from '#shared/paths.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { EditReservedCellPopup } from '#client/popups/edit-reserved-cell-popup.tsx';
import { useComponentGallery } from '../helpers/component/gallery.ts';
import { renderInApp } from '../helpers/component/render.ts';

const gallery = useComponentGallery();

async function popupAt(path: string, cookie = '') {
  return renderInApp(createElement(EditReservedCellPopup), { path, queries: await gallery.viewerAnswers(cookie) });
}

/** A member who reserved a square (its piece a draft, as a reservation makes it). */
async function holder() {
  const member = await gallery.member();
  const square = await gallery.availableSquare();
  const reserved = await member.api.cell.reserve.mutate({ token: square.token });
  return { ...member, square, reserved };
}

describe('the edit-reserved-cell popup', () => {
  it('asks a member holding a draft to go on, says until when, and offers the extension', async () => {
    const { cookie, square, reserved } = await holder();
    const popup = await popupAt('/', cookie);
    const box = popup.byTestId('edit-reserved-cell-popup');
    expect(popup.text(box)).toContain('You have a reserved square waiting for your piece. Continue working on it?');
    expect(popup.text(box)).toContain(
      `Row ${square.row}, column ${square.column}: held for you until ${formatDeadlineDate(reserved.expiresAt)}.`,
    );
    const offer = popup.byTestId('extend-offer');
    expect(popup.text(offer)).toContain(`until ${formatDeadlineDate(reserved.extendedUntil)}.`);
    expect(popup.byTestId('extend-link', offer).attributes.href).toBe(
      extendPath(reserved.token, reserved.reminderToken),
    );
    expect(popup.button('Yes, continue', box).attributes).toHaveProperty('data-autofocus');
    expect(popup.button('No, later', box)).toBeDefined();
  });

  it('offers no extension once it has been had', async () => {
    const { cookie, api, reserved } = await holder();
    await api.cell.extendReservation.mutate({ cellToken: reserved.token, reminderToken: reserved.reminderToken });
    const popup = await popupAt('/', cookie);
    expect(popup.has('edit-reserved-cell-popup')).toBe(true);
    expect(popup.has('extend-offer')).toBe(false);
  });

  it('waits on a link to a square, a piece or a profile, and asks nobody without a held draft', async () => {
    const { cookie, reserved } = await holder();
    for (const path of [`/observe?cell=${reserved.token}`, `/observe/cell/${reserved.token}/edit`, '/profile/x'])
      expect((await popupAt(path, cookie)).has('edit-reserved-cell-popup'), path).toBe(false);
    expect((await popupAt('/observe', cookie)).has('edit-reserved-cell-popup')).toBe(true);
    expect((await popupAt('/', (await gallery.member()).cookie)).has('edit-reserved-cell-popup')).toBe(false);
    expect((await popupAt('/')).has('edit-reserved-cell-popup')).toBe(false);
  });
});
