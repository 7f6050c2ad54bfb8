/**
 * The reserve popup (client/popups/reserve-popup.tsx) as it first shows, rendered without a browser: a guest is asked
 * to log in or register and comes back to the square; a member who already holds a square is told which, until when,
 * and led to it; any other member gets the first step, its submit waiting for a choice. What the popup knows of the
 * viewer is what the real server answered them.
 */
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { ReservePopup } from '#client/popups/reserve-popup.tsx';
import { useComponentGallery } from '../helpers/component/gallery.ts';
import { renderInApp } from '../helpers/component/render.ts';

const gallery = useComponentGallery();

/** The popup over `cell` as `cookie`'s owner (a guest without one) sees it. */
async function popupFor(cell: { token: string | null; row: number; column: number; status: number }, cookie = '') {
  return renderInApp(createElement(ReservePopup, { cell, onClose: () => {} }), {
    path: '/observe',
    queries: await gallery.viewerAnswers(cookie),
  });
}

describe('the reserve popup, as it opens', () => {
  it('asks a guest to log in or register, both coming back to the square', async () => {
    const cell = await gallery.availableSquare();
    const popup = await popupFor(cell);
    const guest = popup.byTestId('guest-prompt');
    expect(popup.text(guest)).toContain('Log in or create a free account to reserve this square.');
    const back = encodeURIComponent(`/observe?cell=${cell.token}`);
    expect(popup.link('Log in', guest).attributes.href).toBe(`/login?next=${back}`);
    expect(popup.link('Register', guest).attributes.href).toBe(`/registration?next=${back}`);
    expect(popup.has('reserve-step-0')).toBe(false);
    expect(popup.text(popup.byTestId('cell-facts'))).toBe(`Row${cell.row}Column${cell.column}Statusavailable`);
  });

  it('brings a guest back to the view as it stands from a branch slot, which has no link of its own', async () => {
    const popup = await popupFor({ token: null, row: 26, column: -2, status: CellStatus.Available });
    expect(popup.link('Log in').attributes.href).toBe(`/login?next=${encodeURIComponent('/observe')}`);
    expect(popup.text(popup.byTestId('cell-facts'))).toContain('available, a new branch slot');
  });

  it('gives a member the first step: the question, Yes and No, nothing chosen, submit disabled', async () => {
    const { cookie } = await gallery.member();
    const popup = await popupFor(await gallery.availableSquare(), cookie);
    const step = popup.byTestId('reserve-step-0');
    expect(popup.text(popup.all((node) => node.name === 'legend', step)[0])).toBe(
      'Would you like to reserve this square?',
    );
    const radios = popup.all((node) => node.name === 'input' && node.attributes.type === 'radio', step);
    expect(radios.map((radio) => radio.attributes.value)).toEqual(['yes', 'no']);
    expect(radios.some((radio) => 'checked' in radio.attributes)).toBe(false);
    expect(popup.button('SUBMIT', step).attributes).toHaveProperty('disabled');
    expect(popup.text(popup.all((node) => node.attributes.class === 'eyebrow popup__eyebrow')[0])).toBe(
      'an available square',
    );
  });

  it('tells a member who holds a square which one, until when, and leads there instead of the steps', async () => {
    const { cookie, api } = await gallery.member();
    const held = await gallery.availableSquare();
    const reserved = await api.cell.reserve.mutate({ token: held.token });
    const popup = await popupFor(await gallery.availableSquare(), cookie);
    const holding = popup.byTestId('reserve-held');
    expect(popup.text(holding)).toContain(
      `You already hold a square (row ${held.row}, column ${held.column}) until ${formatDeadlineDate(reserved.expiresAt)}.`,
    );
    expect(popup.link('Open your square', holding).attributes.href).toBe(`/observe/cell/${held.token}/edit`);
    expect(popup.has('reserve-step-0')).toBe(false);
  });
});
