/**
 * The art editor's image tile in a real browser (decision 011): choosing an image by mouse, keyboard and drop.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FileChooser, JSHandle, Page } from 'playwright-core';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import {
  availableSquareNextToPublished,
  member,
  reserveAndOpenEditor,
  screenshot,
  textOf,
} from '../helpers/browser/art-editor-fixtures.ts';
import { useArtEditor } from '#tests/helpers/browser/art-editor.ts';

const studio = useArtEditor();

async function dataTransferWith(
  page: Page,
  filePath: string,
  name: string,
  type: string,
): Promise<JSHandle<DataTransfer>> {
  const base64 = fs.readFileSync(filePath).toString('base64');
  return page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { base64, name, type },
  );
}

const inputTestIdOf = async (chooser: FileChooser) => chooser.element().getAttribute('data-testid');

describe('the image tile', () => {
  it('opens the file picker from anywhere on the tile, by click, Enter and Space, and takes a dropped image with a highlight', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Dropper');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken);
    // A listener for the whole test keeps Playwright catching the page's file choosers: one that only starts with
    // waitForEvent may start after a quick key press has already opened (and lost) the chooser.
    page.on('filechooser', () => undefined);

    // A click in the middle of the empty tile (not on a small button) opens the picker of that slot.
    const tile0 = page.getByTestId('image-tile-0');
    const box = (await tile0.boundingBox())!;
    const [clicked] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.mouse.click(box.x + box.width / 2, box.y + box.height / 2),
    ]);
    expect(await inputTestIdOf(clicked)).toBe('image-input-0');
    await clicked.setFiles(studio.file('mill.png'));
    await page.getByTestId('image-preview-0').waitFor();

    // The keyboard: the tile takes the focus, and Enter or Space opens the picker.
    const tile1 = page.getByTestId('image-tile-1');
    await tile1.focus();
    const [entered] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    expect(await inputTestIdOf(entered)).toBe('image-input-1');
    const [spaced] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    expect(await inputTestIdOf(spaced)).toBe('image-input-1');
    await spaced.setFiles(studio.file('detail.jpg'));
    await page.getByTestId('image-preview-1').waitFor();

    // A dragged image lights the tile up and says what a drop does; the drop puts it in the slot.
    const tile2 = page.getByTestId('image-tile-2');
    const slot2 = page.getByTestId('image-slot-2');
    const picture = await dataTransferWith(page, studio.file('mill.png'), 'dropped.png', 'image/png');
    await tile2.dispatchEvent('dragenter', { dataTransfer: picture });
    await tile2.dispatchEvent('dragover', { dataTransfer: picture });
    await page.waitForSelector('[data-testid="image-slot-2"].is-drop-target');
    expect(await textOf(page, 'image-hint-2')).toBe('Drop to add it');
    const frame = await slot2.locator('.editor-slot__frame').evaluate((el) => getComputedStyle(el).borderTopStyle);
    expect(frame).toBe('solid');
    await screenshot(page, 'editor-image-drop');
    await tile2.dispatchEvent('drop', { dataTransfer: picture });
    await page.getByTestId('image-preview-2').waitFor();
    expect(await slot2.getAttribute('class')).not.toContain('is-drop-target');
    expect(await page.getByTestId('error-files.2').count()).toBe(0);

    // Leaving the tile without dropping takes the highlight away.
    const another = await dataTransferWith(page, studio.file('detail.jpg'), 'another.jpg', 'image/jpeg');
    await tile2.dispatchEvent('dragenter', { dataTransfer: another });
    await page.waitForSelector('[data-testid="image-slot-2"].is-drop-target');
    await tile2.dispatchEvent('dragleave', { dataTransfer: another });
    await page.waitForSelector('[data-testid="image-slot-2"]:not(.is-drop-target)');
    expect(artist.errors).toEqual([]);
  });

  it('refuses a dropped file that is not an image with the same message as the picker, and keeps the slot empty', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Misdropper');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken);
    const tile = page.getByTestId('image-tile-0');
    const dropOnTile = async (filePath: string, name: string, type: string) => {
      const transfer = await dataTransferWith(page, filePath, name, type);
      await tile.dispatchEvent('dragenter', { dataTransfer: transfer });
      await tile.dispatchEvent('dragover', { dataTransfer: transfer });
      await tile.dispatchEvent('drop', { dataTransfer: transfer });
    };
    const dropGoodThenRemove = async () => {
      await dropOnTile(studio.file('mill.png'), 'mill.png', 'image/png');
      await page.getByTestId('image-preview-0').waitFor();
      expect(await page.getByTestId('error-files.0').count()).toBe(0);
      await page.getByTestId('image-remove-0').click();
      await page.getByTestId('image-preview-0').waitFor({ state: 'detached' });
    };

    // The picker's answer to a text file named .png.
    await page.getByTestId('image-input-0').setInputFiles(studio.file('notes.png'));
    await page.getByTestId('error-files.0').waitFor();
    const pickerMessage = await textOf(page, 'error-files.0');
    expect(pickerMessage).toBe(ART_MESSAGES.imageType);
    await dropGoodThenRemove();

    // The same file dropped, disguised as a PNG or named for what it is: the same message, and no picture.
    for (const [name, type] of [
      ['notes.png', 'image/png'],
      ['notes.txt', 'text/plain'],
    ] as const) {
      await dropOnTile(studio.file('notes.png'), name, type);
      await page.getByTestId('error-files.0').waitFor();
      expect(await textOf(page, 'error-files.0')).toBe(pickerMessage);
      expect(await page.getByTestId('image-preview-0').count()).toBe(0);
      await expect(tile.getAttribute('aria-invalid')).resolves.toBe('true');
      await dropGoodThenRemove();
    }
    expect(artist.errors).toEqual([]);
  });
});
