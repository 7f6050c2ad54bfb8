/**
 * The art editor's browser-test fixtures: real image files made with sharp, members signed up from the page, the
 * square to fill, and one helper per wizard step, so tests/e2e/art-editor.test.ts reads as the walk it tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { postFromPage, type Gallery } from './harness.ts';
import { openPage, screenshotsTo, type ReusablePage } from './pages.ts';

export const THIS_YEAR = new Date().getFullYear();

/** A temporary folder with the test's files: two real pictures, a text file named .png, and a PNG with a broken body. */
export async function writeImageFiles(): Promise<{ dir: string; file: (name: string) => string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'art-editor-files-'));
  const file = (name: string) => path.join(dir, name);
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a6ea5' } })
    .png()
    .toFile(file('mill.png'));
  await sharp({ create: { width: 360, height: 480, channels: 3, background: '#c8793a' } })
    .jpeg({ quality: 85 })
    .toFile(file('detail.jpg'));
  fs.writeFileSync(file('notes.png'), 'These are notes about the painting, not a picture.\n');
  fs.writeFileSync(
    file('broken.png'),
    Buffer.concat([fs.readFileSync(file('mill.png')).subarray(0, 41), Buffer.alloc(400, 0x5a)]),
  );
  return { dir, file };
}

export interface Member {
  page: Page;
  errors: string[];
  userId: number;
}

/** The page the editor's tests use: tall enough for a step with its buttons, in English. */
export const EDITOR_PAGE = { viewport: { width: 1280, height: 900 }, locale: 'en-US' };

/**
 * A new member, signed up from the page as the registration form does: in their own browser context (`from` a
 * browser), or on a reused page taken for them.
 */
export async function member(gallery: Gallery, from: Browser | ReusablePage, name: string): Promise<Member> {
  const { page, errors } = 'take' in from ? await from.take() : await openPage(from, EDITOR_PAGE);
  const email = `${name.toLowerCase()}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.goto(`${gallery.url}/`);
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
  expect(
    await postFromPage(page, '/api/register', { firstname: 'Ada', lastname: name, email, password: 'editor-pass-1!' }),
  ).toBe(200);
  await page.reload();
  await page.locator('header a[href="/profile"]').first().waitFor();
  const userId = gallery.app.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
  return { page, errors, userId };
}

/** An AVAILABLE square of the default tree with a published piece among its 8 neighbours (not yet taken by a test). */
export async function availableSquareNextToPublished(
  gallery: Gallery,
): Promise<{ token: string; neighbourToken: string }> {
  const { db } = gallery.app.deps;
  const treeId = (await getDefaultTree(db))!.id;
  const all = db
    .select({ token: cells.token, row: cells.row, column: cells.column, status: cells.status, artStatus: art.status })
    .from(cells)
    .leftJoin(art, eq(art.id, cells.artId))
    .where(eq(cells.treeId, treeId))
    .all();
  const published = new Map(
    all
      .filter((c) => c.status === CellStatus.Published && c.artStatus === ArtStatus.Published)
      .map((c) => [`${c.row}/${c.column}`, c.token]),
  );
  for (const cell of all) {
    if (cell.status !== CellStatus.Available) continue;
    for (const [dr, dc] of [
      [-1, -1],
      [-1, 0],
      [-1, 1],
      [0, -1],
      [0, 1],
      [1, -1],
      [1, 0],
      [1, 1],
    ] as const) {
      const neighbour = published.get(`${cell.row + dr}/${cell.column + dc}`);
      if (neighbour) return { token: cell.token, neighbourToken: neighbour };
    }
  }
  throw new Error('The seeded tree has no available square next to a published piece.');
}

/** The piece on a square, as the database has it. */
export const pieceOn = (gallery: Gallery, cellToken: string) =>
  gallery.app.deps.db
    .select({ id: art.id, token: art.token, status: art.status, title: art.title })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(eq(cells.token, cellToken))
    .get()!;

/**
 * Reserves the square and opens its editor: at its address, or (`via: 'prompt'`) as a member coming back finds it, by
 * the question another page of the app asks about a held square, so that the browser's Back has a page of the app to
 * go to.
 */
export async function reserveAndOpenEditor(
  gallery: Gallery,
  who: Member,
  cellToken: string,
  via: 'address' | 'prompt' = 'address',
): Promise<void> {
  expect(await postFromPage(who.page, `/api/cell/${cellToken}/reserve`, {})).toBe(200);
  if (via === 'address') {
    await who.page.goto(`${gallery.url}/observe/cell/${cellToken}/edit`);
  } else {
    await who.page.goto(`${gallery.url}/learn`);
    await who.page.getByTestId('edit-reserved-cell-popup').getByRole('button', { name: 'Yes, continue' }).click();
  }
  await stepIs(who.page, 'IMAGE');
}

export const stepIs = (page: Page, name: string) =>
  page.waitForFunction(
    (expected) => document.querySelector('[data-testid="step-title"]')?.textContent === expected,
    name,
  );

export const textOf = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

/** CONTINUE, and the step it should open. */
export async function next(page: Page, expected: string): Promise<void> {
  await page.getByTestId('editor-next').click();
  await stepIs(page, expected);
}

export async function chooseImage(page: Page, slot: number, filePath: string): Promise<void> {
  await page.getByTestId(`image-input-${slot}`).setInputFiles(filePath);
  await page.getByTestId(`image-preview-${slot}`).waitFor();
}

export async function fillImageStep(page: Page, file: (name: string) => string): Promise<void> {
  await page.getByTestId('field-title').fill('Evening by the Old Mill');
  await chooseImage(page, 0, file('mill.png'));
  await chooseImage(page, 1, file('detail.jpg'));
}

export async function fillCategoryStep(page: Page): Promise<void> {
  await page.getByTestId('field-category').selectOption('Painting');
  await page.getByTestId('field-subject').selectOption('Landscape');
  await page.getByTestId('field-style').selectOption('Impressionism');
  await page.getByTestId('field-year').selectOption(String(THIS_YEAR - 1));
}

export const checkbox = (page: Page, group: string, label: string) =>
  page.getByTestId(`field-${group}`).getByLabel(label, { exact: true });

export async function fillSize(page: Page): Promise<void> {
  await page.getByTestId('field-width').fill('24');
  await page.getByTestId('field-height').fill('18');
  await page.getByTestId('field-depth').fill('.01');
  await page.getByTestId('field-units').selectOption('in');
}

export async function addKeywords(page: Page, entry: string): Promise<void> {
  await page.getByTestId('keyword-input').fill(entry);
  await page.getByTestId('keyword-input').press('Enter');
}

/** Walks a member's empty draft to the DESCRIPTION step with valid entries. */
export async function walkToDescription(page: Page, file: (name: string) => string): Promise<void> {
  await fillImageStep(page, file);
  await next(page, 'CATEGORY');
  await fillCategoryStep(page);
  await next(page, 'MEDIUM');
  await checkbox(page, 'medium', 'Oil').check();
  await checkbox(page, 'materials', 'Canvas').check();
  await next(page, 'SIZE');
  await fillSize(page);
  await next(page, 'DESCRIPTION');
}

/** Saves a full-page screenshot at the current size and at a phone's width (only with ART_EDITOR_SHOTS). */
export const screenshot = screenshotsTo(process.env.ART_EDITOR_SHOTS, { alsoOnPhone: true });
