/**
 * The art details page in a real browser: what a visitor sees of a published piece and the view it counts, a member's
 * like, what its author is offered before and after publishing (decision 011), a phone-sized window, an unknown
 * square. No console errors along the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { art, artLikes, artViews, cells, connections, pictures, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { formatDimensions } from '#client/art/art-facts.tsx';
import {
  failedLoad,
  launchBrowser,
  postFromPage,
  releaseBrowser,
  startGallery,
  type Gallery,
} from '../helpers/browser/harness.ts';
import { reusablePage, screenshotsTo } from '../helpers/browser/pages.ts';

/** With ART_DETAILS_SHOTS=<folder> set, the test saves 1280x800 and 360x740 screenshots there. */
const screenshot = screenshotsTo(process.env.ART_DETAILS_SHOTS, { pauseMs: 250 });

let gallery: Gallery;
let browser: Browser;
/** One page for every test, a new visitor each time (no cookies, no storage); none is about the browser's own state. */
const tab = reusablePage(() => browser, { locale: 'en-US' });

interface SeededPiece {
  artId: number;
  cellToken: string;
  title: string;
  year: number | null;
  dimensions: string;
  authorName: string;
  authorToken: string;
  pictureCount: number;
}

let piece: SeededPiece;

/** A published piece of the seeded demo with more than one picture and at least one connection. */
function pickPiece(): SeededPiece {
  const { db } = gallery.app.deps;
  const rows = db
    .select({
      artId: art.id,
      cellToken: cells.token,
      title: art.title,
      year: art.year,
      width: art.width,
      height: art.height,
      depth: art.depth,
      units: art.units,
      noSize: art.noSize,
      firstname: users.firstname,
      lastname: users.lastname,
      authorToken: users.token,
    })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .innerJoin(users, eq(users.id, art.authorId))
    .where(and(eq(cells.status, CellStatus.Published), eq(art.status, ArtStatus.Published)))
    .orderBy(asc(cells.row), asc(cells.column))
    .all();
  expect(rows.length).toBeGreaterThan(0);
  const pictureCount = (artId: number) =>
    db.select({ n: count() }).from(pictures).where(eq(pictures.artId, artId)).get()!.n;
  const connectionCount = (artId: number) =>
    db
      .select({ n: count() })
      .from(connections)
      .where(and(eq(connections.artId, artId), eq(connections.status, 1)))
      .get()!.n;
  const chosen =
    rows.find((row) => pictureCount(row.artId) > 1 && connectionCount(row.artId) > 0) ??
    rows.find((row) => connectionCount(row.artId) > 0) ??
    rows[0]!;
  return {
    artId: chosen.artId,
    cellToken: chosen.cellToken,
    title: chosen.title,
    year: chosen.year,
    dimensions: formatDimensions({
      width: chosen.width,
      height: chosen.height,
      depth: chosen.depth,
      units: chosen.units,
      no_size: chosen.noSize,
    }),
    authorName: `${chosen.firstname} ${chosen.lastname}`,
    authorToken: chosen.authorToken,
    pictureCount: pictureCount(chosen.artId),
  };
}

const viewsOf = (artId: number) =>
  gallery.app.deps.db.select({ n: count() }).from(artViews).where(eq(artViews.artId, artId)).get()!.n;
const likesOf = (artId: number) =>
  gallery.app.deps.db.select({ n: count() }).from(artLikes).where(eq(artLikes.artId, artId)).get()!.n;

const detailsPath = (cellToken: string) => `/observe/cell/${cellToken}/details`;

async function openDetails(page: Page, cellToken: string): Promise<void> {
  await page.goto(`${gallery.url}${detailsPath(cellToken)}`);
  await page.getByTestId('art-title').waitFor();
}

/** Registers a new member from the page (as the registration form does) and reloads as them. */
async function registerOn(page: Page): Promise<string> {
  const email = `liker.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  await page.goto(`${gallery.url}/`);
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
  const status = await postFromPage(page, '/api/register', {
    firstname: 'Art',
    lastname: 'Lover',
    email,
    password: 'liking-pass-1!',
  });
  expect(status).toBe(200);
  await page.reload();
  await page.locator('header a[href="/profile"]').first().waitFor();
  return email;
}

/** Gives the member a piece on an available square, waiting for review as if just submitted (or in `status`). */
function submittedPieceOf(email: string, status: ArtStatus = ArtStatus.Submitted): { cellToken: string } {
  const { db } = gallery.app.deps;
  const authorId = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
  const cell = db
    .select({ id: cells.id, token: cells.token })
    .from(cells)
    .where(eq(cells.status, CellStatus.Available))
    .limit(1)
    .get()!;
  const now = Date.now();
  const token = `e2eart${now.toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const { id: artId } = db
    .insert(art)
    .values({
      token,
      cellId: cell.id,
      authorId,
      status,
      title: 'A Piece Under Review',
      noSize: true,
      submittedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: art.id })
    .get();
  db.update(cells).set({ status: CellStatus.Reserved, artId }).where(eq(cells.id, cell.id)).run();
  return { cellToken: cell.token };
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser('cpu')]);
  piece = pickPiece();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('the art details page', () => {
  it('shows a published piece to a visitor: title, author, dimensions, pictures, connections, and counts the view', async () => {
    const { page, errors } = await tab.take();
    const viewsBefore = viewsOf(piece.artId);
    await openDetails(page, piece.cellToken);

    await expect(page.getByTestId('art-details-label').textContent()).resolves.toBe('details.');
    // The page's one main heading names the piece, and the keyboard starts there after a move.
    await expect(page.locator('main h1').count()).resolves.toBe(1);
    await expect(page.locator('main h1').getAttribute('data-testid')).resolves.toBe('art-title');
    const title = (await page.getByTestId('art-title').textContent())!;
    expect(title).toContain(piece.title);
    if (piece.year !== null) expect(title).toContain(String(piece.year));
    const author = page.getByTestId('art-author').getByRole('link');
    await expect(author.textContent()).resolves.toBe(piece.authorName);
    await expect(author.getAttribute('href')).resolves.toBe(`/profile/${piece.authorToken}`);
    await expect(page.getByTestId('art-dimensions').textContent()).resolves.toBe(piece.dimensions);
    await expect(page.getByTestId('art-ai-use').textContent()).resolves.toMatch(
      /^(No AI used|Made with AI assistance|AI-generated)$/,
    );

    // A picture that really loaded.
    const main = page.getByTestId('art-main-image');
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="art-main-image"]');
      return image !== null && image.complete && image.naturalWidth > 0;
    });

    // Its connections link to the neighbours' details pages.
    const connectionItems = page.getByTestId('art-connection');
    expect(await connectionItems.count()).toBeGreaterThan(0);
    const firstLink = await connectionItems.first().getByRole('link').getAttribute('href');
    expect(firstLink).toMatch(/^\/observe\/cell\/[A-Za-z0-9_-]+\/details$/);

    // Thumbnails switch the main picture.
    if (piece.pictureCount > 1) {
      const thumbs = page.getByTestId('art-thumb');
      expect(await thumbs.count()).toBe(piece.pictureCount);
      const firstSrc = await main.getAttribute('src');
      await expect(thumbs.nth(0).getAttribute('aria-pressed')).resolves.toBe('true');
      await thumbs.nth(1).click();
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid="art-main-image"]')?.getAttribute('src') !== before,
        firstSrc,
      );
      await expect(thumbs.nth(1).getAttribute('aria-pressed')).resolves.toBe('true');
      await thumbs.nth(0).click();
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid="art-main-image"]')?.getAttribute('src') === before,
        firstSrc,
      );
    }

    // The visit was counted once, and the page shows the new count.
    await expect.poll(() => viewsOf(piece.artId)).toBe(viewsBefore + 1);
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="art-reviews-count"]')?.textContent === String(expected),
      viewsBefore + 1,
    );

    // A guest gets the counts but no like toggle.
    expect(await page.getByTestId('art-like-toggle').count()).toBe(0);
    expect(await page.getByTestId('art-edit').count()).toBe(0);

    await screenshot(page, 'details-1280');
    expect(errors).toEqual([]);
  });

  it('follows a connection to the neighbour, and the close button returns to the tree', async () => {
    const { page, errors } = await tab.take();
    await openDetails(page, piece.cellToken);
    const link = page.getByTestId('art-connection').first().getByRole('link');
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await page.waitForURL((url) => url.pathname === href);
    await page.getByTestId('art-title').waitFor();
    await page.getByRole('button', { name: 'Close and return to the tree' }).click();
    await page.waitForURL((url) => url.pathname === '/observe');
    expect(errors).toEqual([]);
  });

  it('lets a member like the piece: the count rises by one and survives a reload', async () => {
    const { page, errors } = await tab.take();
    await registerOn(page);
    const likesBefore = likesOf(piece.artId);
    await openDetails(page, piece.cellToken);
    const toggle = page.getByTestId('art-like-toggle');
    await page.waitForSelector('[data-testid="art-like-toggle"]:not([disabled])');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(page.getByTestId('art-likes-count').textContent()).resolves.toBe(String(likesBefore));

    await toggle.click();
    await page.waitForSelector('[data-testid="art-like-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(page.getByTestId('art-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    await expect.poll(() => likesOf(piece.artId)).toBe(likesBefore + 1);
    await screenshot(page, 'details-liked');

    await page.reload();
    await page.waitForSelector('[data-testid="art-like-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(page.getByTestId('art-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    expect(errors).toEqual([]);
  });

  it('shows its author a piece waiting for review, with its status and EDIT but no REQUEST REMOVAL; a visitor gets the not-found message', async () => {
    const { page, errors } = await tab.take();
    const email = await registerOn(page);
    const { cellToken } = submittedPieceOf(email);
    await openDetails(page, cellToken);
    await expect(page.getByTestId('art-status').textContent()).resolves.toContain('waiting for review');
    await expect(page.getByTestId('art-edit').getAttribute('href')).resolves.toBe(`/observe/cell/${cellToken}/edit`);
    await expect(page.getByTestId('art-edit').textContent()).resolves.toBe('EDIT');
    // Only a published piece can be taken down at its artist's request.
    expect(await page.getByTestId('art-request-removal').count()).toBe(0);
    expect(await page.getByTestId('art-removal-pending').count()).toBe(0);
    await expect(page.getByTestId('art-dimensions').textContent()).resolves.toBe('No size');
    // No like toggle on one's own piece.
    expect(await page.getByTestId('art-like-toggle').count()).toBe(0);
    await screenshot(page, 'details-author');
    expect(errors).toEqual([]);

    // The author is done with the page: taken again, it is a visitor's, signed out.
    const visitor = await tab.take();
    await visitor.page.goto(`${gallery.url}${detailsPath(cellToken)}`);
    await visitor.page.getByTestId('art-not-found').waitFor();
    expect(visitor.errors.filter((line) => !failedLoad(404).test(line))).toEqual([]);
  });

  it('shows its author an empty draft as it is: a draft, its size and AI answer still to come, no invented facts', async () => {
    const { page, errors } = await tab.take();
    await registerOn(page);
    const { db } = gallery.app.deps;
    const free = db
      .select({ token: cells.token })
      .from(cells)
      .where(and(eq(cells.status, CellStatus.Available), eq(cells.type, 1)))
      .limit(1)
      .get()!;
    expect(await postFromPage(page, `/api/cell/${free.token}/reserve`, {})).toBe(200);
    await openDetails(page, free.token);
    await expect(page.getByTestId('art-status').textContent()).resolves.toBe(
      'Not published This piece is a draft; only you and our team can see it.',
    );
    await expect(page.getByTestId('art-dimensions').textContent()).resolves.toBe('Size not given yet');
    await expect(page.getByTestId('art-ai-use').textContent()).resolves.toBe('Not confirmed yet');
    expect(errors).toEqual([]);
  });

  it('offers its author no REQUEST REMOVAL on a piece sent back for changes, and offers it once the piece is published', async () => {
    const { page, errors } = await tab.take();
    const email = await registerOn(page);
    const { cellToken } = submittedPieceOf(email, ArtStatus.ChangesRequested);
    await openDetails(page, cellToken);
    await expect(page.getByTestId('art-status').textContent()).resolves.toContain('changes requested');
    await page.getByTestId('art-edit').waitFor();
    expect(await page.getByTestId('art-request-removal').count()).toBe(0);

    const { db } = gallery.app.deps;
    const artId = db.select({ artId: cells.artId }).from(cells).where(eq(cells.token, cellToken)).get()!.artId!;
    db.update(art).set({ status: ArtStatus.Published, publishedAt: Date.now() }).where(eq(art.id, artId)).run();
    db.update(cells).set({ status: CellStatus.Published }).where(eq(cells.token, cellToken)).run();
    await page.reload();
    await page.getByTestId('art-title').waitFor();
    expect(await page.getByTestId('art-status').count()).toBe(0);
    await expect(page.getByTestId('art-request-removal').textContent()).resolves.toBe('REQUEST REMOVAL');
    expect(errors).toEqual([]);
  });

  it('sets its title "details." in the face of every other page title', async () => {
    const { page, errors } = await tab.take();
    const face = (title: Locator) =>
      title.evaluate((element) => {
        const style = getComputedStyle(element);
        return { fontFamily: style.fontFamily, fontWeight: style.fontWeight };
      });
    await openDetails(page, piece.cellToken);
    // Not the page's h1 here (the piece's title is), so the face cannot come from the h1 style.
    const details = await face(page.getByTestId('art-details-label'));
    await page.goto(`${gallery.url}/faqs`);
    const faqs = await face(page.locator('h1.page__title'));
    expect(faqs.fontFamily).toMatch(/serif$/);
    expect(faqs.fontFamily).not.toMatch(/sans-serif$/);
    expect(details).toEqual(faqs);
    expect(errors).toEqual([]);
  });

  it('fits a phone-sized window', async () => {
    const { page, errors } = await tab.take({ viewport: { width: 360, height: 740 } });
    await openDetails(page, piece.cellToken);
    await page.getByTestId('art-main-image').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'details-360');
    expect(errors).toEqual([]);
  });

  it('answers an unknown square with a friendly message and a way back to the tree', async () => {
    const { page, errors } = await tab.take();
    await page.goto(`${gallery.url}${detailsPath('NoSuchSquareToken0000')}`);
    const missing = page.getByTestId('art-not-found');
    await missing.waitFor();
    await expect(missing.getByRole('link', { name: 'back to the tree.' }).getAttribute('href')).resolves.toBe(
      '/observe',
    );
    // The only console line allowed is the browser's own note about the 404 answer.
    expect(errors.filter((line) => !failedLoad(404).test(line))).toEqual([]);
  });
});
