/**
 * The subscribe popup (client/popups/subscribe-popup.tsx) as it first shows, rendered without a browser over what
 * the real server answers the viewer: a guest is asked to log in or register; a member chooses between this square
 * and any square, submit waiting for a choice; a reserved square says so first; a square without a token of its own
 * offers only "any square".
 */
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { SubscribePopup } from '#client/popups/subscribe-popup.tsx';
import { useComponentGallery } from '../helpers/component/gallery.ts';
import { renderInApp } from '../helpers/component/render.ts';

const gallery = useComponentGallery();

async function popupFor(cell: { token: string | null; row: number; column: number; status: number }, cookie = '') {
  return renderInApp(createElement(SubscribePopup, { cell, onClose: () => {} }), {
    path: '/observe',
    queries: await gallery.viewerAnswers(cookie),
  });
}

const pending = async () => ({ ...(await gallery.availableSquare()), status: CellStatus.Pending });

describe('the subscribe popup, as it opens', () => {
  it('asks a guest to log in or register, coming back to the square', async () => {
    const cell = await pending();
    const popup = await popupFor(cell);
    const guest = popup.byTestId('guest-prompt');
    expect(popup.text(guest)).toContain('to be told when a square becomes available.');
    expect(popup.link('Log in', guest).attributes.href).toBe(
      `/login?next=${encodeURIComponent(`/observe?cell=${cell.token}`)}`,
    );
    expect(popup.has('subscribe-form')).toBe(false);
  });

  it('lets a member choose this square or any square, nothing chosen and submit disabled', async () => {
    const { cookie } = await gallery.member();
    const popup = await popupFor(await pending(), cookie);
    const form = popup.byTestId('subscribe-form');
    const options = popup.all((node) => node.name === 'label', form).map((label) => popup.text(label));
    expect(options).toEqual([
      'Tell me when this square becomes available',
      'Tell me when any square becomes available',
    ]);
    const radios = popup.all((node) => node.name === 'input', form);
    expect(radios.some((radio) => 'checked' in radio.attributes || 'disabled' in radio.attributes)).toBe(false);
    expect(popup.button('SUBMIT', form).attributes).toHaveProperty('disabled');
    expect(popup.has('subscribe-reserved-note')).toBe(false);
    expect(popup.text(popup.byTestId('cell-facts'))).toContain('unavailable (not yet connected to a published piece)');
  });

  it('says first that a reserved square is reserved', async () => {
    const { cookie } = await gallery.member();
    const popup = await popupFor({ ...(await gallery.availableSquare()), status: CellStatus.Reserved }, cookie);
    expect(popup.text(popup.byTestId('subscribe-reserved-note'))).toBe(
      'This square is currently reserved. However, you can still request the following.',
    );
  });

  it('offers only "any square" for a square with no token of its own', async () => {
    const { cookie } = await gallery.member();
    const popup = await popupFor({ token: null, row: 5, column: -4, status: CellStatus.Pending }, cookie);
    const [thisSquare, anySquare] = popup.all((node) => node.name === 'input', popup.byTestId('subscribe-form'));
    expect(thisSquare!.attributes).toHaveProperty('disabled');
    expect(anySquare!.attributes).not.toHaveProperty('disabled');
  });
});
