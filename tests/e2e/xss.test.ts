/**
 * User text is rendered as text everywhere, in a real browser: a piece and an artist named with markup show
 * literally on every page that shows them. The DOM itself is checked, not only that no dialog opens: the Content
 * Security Policy would block an inline handler anyway.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { sendContactMessage } from '#server/services/mail/contact.ts';
import { requestRemoval } from '#server/services/art/removal-requests.ts';
import { reindexArtOfAuthor } from '#server/services/search/search.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { reusablePage } from '../helpers/browser/pages.ts';
import { treeReady } from '../helpers/browser/tree-page.ts';
import { E2E_ADMIN } from '../helpers/paths.ts';

const TITLE = '<img src=x onerror=alert(1)>';
const FIRSTNAME = '<script>alert(2)</script>';
const LASTNAME = '"><svg onload=alert(3)>';

let gallery: Gallery;
let browser: Browser;
let piece: { cellToken: string; row: number; column: number; authorToken: string; authorEmail: string };
const dialogs: string[] = [];
/** One page for the file, a new visitor each time it is taken (no cookies, no storage, no dialog handler). */
const tab = reusablePage(() => browser, { locale: 'en-US' });

/** Gives the first published piece of the seeded demo the hostile title, and its artist the hostile names. */
async function plantPayload(): Promise<typeof piece> {
  const { db } = gallery.app.deps;
  const chosen = db
    .select({
      artId: art.id,
      cellId: cells.id,
      authorId: art.authorId,
      cellToken: cells.token,
      row: cells.row,
      column: cells.column,
      treeId: cells.treeId,
      authorToken: users.token,
      authorEmail: users.email,
      authorRole: users.role,
    })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .innerJoin(users, eq(users.id, art.authorId))
    .where(and(eq(cells.status, CellStatus.Published), eq(art.status, ArtStatus.Published)))
    .orderBy(asc(cells.row), asc(cells.column))
    .get()!;
  db.update(art)
    .set({ title: TITLE, description: `${TITLE} ${FIRSTNAME}` })
    .where(eq(art.id, chosen.artId))
    .run();
  db.update(users)
    .set({ firstname: FIRSTNAME, lastname: LASTNAME, description: TITLE })
    .where(eq(users.id, chosen.authorId))
    .run();
  await reindexArtOfAuthor(db, chosen.authorId);
  await recordCellChanges(db, chosen.treeId, [chosen.cellId], Date.now());
  // What staff read: the artist's removal request and a visitor's contact message, both hostile.
  const ctx = gallery.app.deps;
  await requestRemoval(
    ctx,
    { id: chosen.authorId, role: chosen.authorRole, token: chosen.authorToken },
    chosen.cellToken,
    `Remove ${TITLE} ${FIRSTNAME}`,
  );
  await sendContactMessage(
    ctx,
    { email: 'xss@example.com', reason: 'Question', subject: FIRSTNAME, message: TITLE },
    '10.0.9.9',
    null,
  );
  return {
    cellToken: chosen.cellToken,
    row: chosen.row,
    column: chosen.column,
    authorToken: chosen.authorToken,
    authorEmail: chosen.authorEmail,
  };
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  piece = await plantPayload();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

afterEach(() => {
  expect(dialogs.splice(0)).toEqual([]);
});

/** The file's page, taken anew (an admin's, if asked), at `path`, its errors watched and any dialog it opens recorded. */
async function visit(path: string, asAdmin = false): Promise<{ page: Page; errors: string[] }> {
  const { context, page, errors } = await tab.take();
  if (asAdmin) {
    const { db, clock } = gallery.app.deps;
    const adminId = db.select({ id: users.id }).from(users).where(eq(users.email, E2E_ADMIN.email)).get()!.id;
    await context.addCookies([
      { name: SESSION_COOKIE, value: (await createSession(db, clock, adminId)).token, url: gallery.url },
    ]);
  }
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${gallery.url}${path}`);
  return { page, errors };
}

/** Elements or handlers the payload would have made had it been parsed as markup. */
function injectedElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    document
      .querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]')
      .forEach((el) => found.push(el.outerHTML.slice(0, 80)));
    document.querySelectorAll('script').forEach((el) => {
      if (el.textContent?.includes('alert(')) found.push(el.outerHTML.slice(0, 80));
    });
    return found;
  });
}

/** The page shows the text literally, made nothing from it, and the CSP had nothing to block. */
async function expectShownAsText(page: Page, errors: string[], texts: string[]): Promise<void> {
  for (const text of texts) await page.getByText(text, { exact: false }).first().waitFor();
  expect(await injectedElements(page)).toEqual([]);
  expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
}

describe('hostile text is shown as text', () => {
  it('on the art details page', async () => {
    const { page, errors } = await visit(`/observe/cell/${piece.cellToken}/details`);
    await page.getByTestId('art-title').waitFor();
    expect(await page.getByTestId('art-title').textContent()).toContain(TITLE);
    await expectShownAsText(page, errors, [TITLE, FIRSTNAME]);
  });

  it("in the details page's Open Graph tags, escaped in the HTML and intact once parsed", async () => {
    const html = await (await fetch(`${gallery.url}/observe/cell/${piece.cellToken}/details`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('og:title');
    expect(head).not.toContain(TITLE);
    expect(head).not.toContain(FIRSTNAME);
    expect(head).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const { page } = await visit(`/observe/cell/${piece.cellToken}/details`);
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toContain(TITLE);
    expect(await injectedElements(page)).toEqual([]);
  });

  it('in the search results popup', async () => {
    const { page, errors } = await visit('/observe');
    await treeReady(page);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill('onerror');
    await box.press('Enter');
    const popup = page.getByTestId('search-popup');
    await popup.getByTestId('search-result').filter({ hasText: TITLE }).first().waitFor();
    await expectShownAsText(page, errors, [TITLE, FIRSTNAME]);
  });

  it("in the tree's live description of the focused square", async () => {
    const { page, errors } = await visit(`/observe?row=${piece.row}&col=${piece.column}&zoom=1`);
    await treeReady(page);
    await page.keyboard.press('Tab');
    while (!(await page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))))
      await page.keyboard.press('Tab');
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="tree-focus-description"]')?.textContent?.includes(text),
      TITLE,
    );
    await expectShownAsText(page, errors, [TITLE]);
  });

  it("on the artist's public profile", async () => {
    const { page, errors } = await visit(`/profile/${piece.authorToken}`);
    await expectShownAsText(page, errors, [TITLE, FIRSTNAME.toLowerCase(), LASTNAME.toLowerCase()]);
  });

  for (const [section, texts] of [
    ['users', () => [FIRSTNAME, LASTNAME]],
    ['removals', () => [TITLE, `Remove ${TITLE} ${FIRSTNAME}`]],
    ['messages', () => [FIRSTNAME, TITLE]],
  ] as const) {
    it(`on the staff dashboard's ${section}`, async () => {
      const { page, errors } = await visit(`/admin/dashboard/${section}`, true);
      await page.getByRole('heading', { name: `${section}.`, level: 1 }).waitFor();
      if (section === 'users') {
        await page.getByLabel('Name or e-mail').fill(piece.authorEmail);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
      }
      await expectShownAsText(page, errors, texts());
    });
  }
});
