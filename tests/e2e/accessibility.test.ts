/**
 * Every page for everyone: axe's WCAG 2.2 A/AA rules find nothing on any route (logged out, as an artist, as an
 * admin) nor with the popups open, and no page logs an error while it is looked at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells, reservations, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { axeViolations } from '../helpers/browser/axe.ts';
import { launchBrowser, postFromPage, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { reusablePage } from '../helpers/browser/pages.ts';
import { E2E_ADMIN } from '../helpers/paths.ts';
import { seededArtist, signUp, type Member } from '../helpers/browser/profile-fixtures.ts';

let gallery: Gallery;
let browser: Browser;
/**
 * One page for the file, a new visitor each time it is taken (no cookies, no storage). Only the layout-shift
 * measurements open pages of their own: they measure a first visit, pictures not yet in the cache.
 */
const tab = reusablePage(() => browser, { locale: 'en-US' });

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

/**
 * Opens a path and waits until the page has drawn what it is about. A page already showing the gallery moves there
 * the way its own links do (history.pushState and a popstate the router follows), which costs a tenth of a load:
 * the sweep reads what every route draws, and the first page of each visit is still a full load. `load: true` forces
 * one.
 */
async function open(page: Page, path: string, { load = false } = {}): Promise<void> {
  const before = await page.evaluate(() => document.querySelector<HTMLElement>('.shell')?.dataset.page ?? null);
  const from = new URL(page.url());
  if (load || before === null || from.origin !== new URL(gallery.url).origin) {
    await page.goto(`${gallery.url}${path}`);
  } else {
    await page.evaluate((to) => {
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    // Another route draws another page (its name on the shell); another query of the same route, another tab.
    if (new URL(path, gallery.url).pathname !== from.pathname)
      await page.waitForFunction((old) => document.querySelector<HTMLElement>('.shell')?.dataset.page !== old, before);
  }
  await page.waitForFunction(() => !document.querySelector('.shell__loading, [aria-busy="true"]'));
  if (path.startsWith('/observe') && !path.includes('/cell/'))
    await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
  await domSettled(page);
}

/** Resolves once the page's DOM has not changed for 300 ms (its data arrived, its pictures laid out), or after 5 s. */
function domSettled(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const limit = window.setTimeout(done, 5000);
        let timer = window.setTimeout(done, 300);
        const observer = new MutationObserver(() => {
          window.clearTimeout(timer);
          timer = window.setTimeout(done, 300);
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
        function done() {
          window.clearTimeout(limit);
          window.clearTimeout(timer);
          observer.disconnect();
          resolve();
        }
      }),
  );
}

/** axe's verdict on the page as it stands, labelled, so a failure names the page. */
async function verdict(page: Page, label: string) {
  return { page: label, violations: await axeViolations(page) };
}

const clean = (label: string) => ({ page: label, violations: [] });

function publishedCellToken(): string {
  const { db } = gallery.app.deps;
  return db
    .select({ token: cells.token })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(and(eq(art.status, ArtStatus.Published), isNotNull(cells.token)))
    .limit(1)
    .get()!.token;
}

function availableTrunkSquare(): { token: string; row: number; column: number } {
  const { db } = gallery.app.deps;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column })
    .from(cells)
    .where(and(eq(cells.status, CellStatus.Available), eq(cells.type, CellType.Trunk)))
    .limit(1)
    .get()!;
}

function pendingSquare(): string {
  const { db } = gallery.app.deps;
  return db
    .select({ token: cells.token })
    .from(cells)
    .where(and(eq(cells.status, CellStatus.Pending), eq(cells.type, CellType.Trunk)))
    .limit(1)
    .get()!.token;
}

describe('logged out', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ page, errors } = await tab.take());
  });

  it('finds nothing on any public page', async () => {
    const paths = [
      '/',
      '/learn',
      '/participate',
      '/faqs',
      '/contact',
      '/terms',
      '/privacy',
      '/login',
      '/registration',
      '/reset-password',
      `/restore-password/${'r'.repeat(22)}`,
      '/forbidden',
      '/no-such-page',
      `/observe/cell/${publishedCellToken()}/details`,
      `/profile/${seededArtist(gallery).token}`,
      '/observe',
    ];
    const found = [];
    for (const path of paths) {
      await open(page, path);
      found.push(await verdict(page, path));
    }
    expect(found).toEqual(paths.map(clean));
  }, 180_000);

  it('finds nothing with the header menu, the help popup, the search results or the guest prompt open', async () => {
    await open(page, '/observe');
    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('dialog').waitFor();
    const help = await verdict(page, 'help popup');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.keyboard.type('the');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.getByRole('dialog').getByRole('table').waitFor();
    const search = await verdict(page, 'search results');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const square = availableTrunkSquare();
    await open(page, `/observe?cell=${square.token}`, { load: true });
    await page.locator('canvas').first().focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('guest-prompt').waitFor();
    const guest = await verdict(page, 'guest prompt');
    await page.keyboard.press('Escape');

    await open(page, '/');
    await page.click('.menu-toggle');
    await page.getByTestId('menu-panel').waitFor({ state: 'visible' });
    const menu = await verdict(page, 'header menu');

    expect([help, search, guest, menu]).toEqual(
      ['help popup', 'search results', 'guest prompt', 'header menu'].map(clean),
    );
    expect(errors).toEqual([]);
  });
});

describe('as an artist', () => {
  let artist: Member;
  let held: { token: string; reminderToken: string };

  beforeAll(async () => {
    artist = await signUp(gallery, tab, 'Able', 'Reader');
    const { db } = gallery.app.deps;
    db.update(users).set({ role: Role.Artist }).where(eq(users.id, artist.id)).run();
    const square = availableTrunkSquare();
    expect(await postFromPage(artist.page, `/api/cell/${square.token}/reserve`, {})).toBe(200);
    const reservation = db
      .select({ token: reservations.token })
      .from(reservations)
      .where(eq(reservations.userId, artist.id))
      .get()!;
    held = { token: square.token, reminderToken: reservation.token };
  });

  it(
    "finds nothing on the member's pages, the editor, the extend page and the popups",
    { timeout: 180_000 },
    async () => {
      const { page } = artist;
      const found = [];
      // The first page of the visit greets the artist with the edit-reserved popup.
      await open(page, '/', { load: true });
      await page.getByTestId('edit-reserved-cell-popup').waitFor();
      found.push(await verdict(page, 'edit-reserved popup'));
      await page.getByRole('button', { name: 'No, later' }).click();

      const paths = [
        '/profile?tab=profile',
        '/profile?tab=account',
        '/profile?tab=atelier',
        '/profile?tab=following',
        `/profile/${artist.token}`,
        `/observe/cell/${held.token}/edit`,
        `/observe/cell/${held.token}/reserve/${held.reminderToken}/extend`,
        '/observe',
      ];
      for (const path of paths) {
        await open(page, path);
        found.push(await verdict(page, path));
      }

      await open(page, '/profile?tab=profile');
      await page.getByTestId('avatar-edit').click();
      await page.getByTestId('avatar-popup').waitFor();
      found.push(await verdict(page, 'avatar popup'));

      await open(page, '/participate');
      await page.getByTestId('open-principles').click();
      await page.getByRole('dialog').waitFor();
      found.push(await verdict(page, 'principles'));

      // A member's popups on the tree: a free square asks whether to reserve it (this member holds one already, and
      // is told so at once); a square not yet open offers the alert.
      for (const [label, token, testId] of [
        ['reserve popup', availableTrunkSquare().token, 'reserve-popup'],
        ['subscribe popup', pendingSquare(), 'subscribe-form'],
      ] as const) {
        await open(page, `/observe?cell=${token}`, { load: true });
        await page.locator('canvas').first().focus();
        await page.keyboard.press('Enter');
        await page.getByTestId(testId).waitFor();
        found.push(await verdict(page, label));
      }

      expect(found).toEqual(
        ['edit-reserved popup', ...paths, 'avatar popup', 'principles', 'reserve popup', 'subscribe popup'].map(clean),
      );
      expect(artist.errors).toEqual([]);
    },
  );
});

describe('as an admin', () => {
  it("finds nothing on the dashboard's sections", async () => {
    const { page, errors } = await tab.take();
    await open(page, '/');
    expect(
      await postFromPage(page, '/api/auth/login', { username: E2E_ADMIN.email, password: E2E_ADMIN.password }),
    ).toBe(200);
    const sections = ['', '/review', '/removals', '/messages', '/users', '/reservations', '/log'];
    const found = [];
    for (const section of sections) {
      await page.goto(`${gallery.url}/admin/dashboard${section}`);
      await page.waitForFunction(
        () => !document.querySelector('[aria-busy="true"]') && document.querySelector('h1, h2'),
      );
      await page.waitForTimeout(300);
      found.push(await verdict(page, `/admin/dashboard${section}`));
    }
    expect(found).toEqual(sections.map((section) => clean(`/admin/dashboard${section}`)));
    expect(errors).toEqual([]);
  });
});

describe('focus after a move', () => {
  it("starts the keyboard at the new page's main heading and announces the page", async () => {
    const { page, errors } = await tab.take();
    await open(page, '/');
    const focused = () =>
      page.evaluate(() => ({
        tag: document.activeElement?.tagName,
        text: document.activeElement?.textContent?.trim(),
      }));

    // A header link: the link stays in the header, yet the keyboard moves on to the new page.
    await page.click('.menu-toggle');
    await page.locator('a[data-menu-item="learn"]').click();
    await page.waitForURL((url) => url.pathname === '/learn');
    await expect.poll(focused).toEqual({ tag: 'H1', text: 'learn.' });
    await expect.poll(() => page.getByTestId('page-announcement').textContent()).toBe('learn., page loaded');

    // A link inside the page, to a page that loads its content first.
    await open(page, '/participate');
    await page.locator('main a[href="/registration"]').first().click();
    await page.waitForURL((url) => url.pathname === '/registration');
    await expect.poll(focused).toEqual({ tag: 'H1', text: 'register.' });
    // Tab from there reaches the form's first field, not the top of the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    expect(errors).toEqual([]);
  });
});

describe('pages hold still', () => {
  /**
   * Sums the page's layout shifts not caused by the visitor's own input (CLS, counted over the whole visit). In a
   * context of its own: a first visit, whose pictures arrive after the layout (a reused page has them in its cache).
   */
  async function layoutShiftOf(
    path: string,
    setUp?: (context: BrowserContext) => Promise<void>,
  ): Promise<{ page: string; cls: number }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await setUp?.(context);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts = { total: 0 };
      (window as unknown as { __layoutShift: typeof shifts }).__layoutShift = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) shifts.total += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await open(page, path);
    // Let the pictures arrive and settle.
    await page.waitForFunction(() => [...document.images].every((image) => image.complete), undefined, {
      timeout: 15_000,
    });
    await page.waitForTimeout(800);
    const cls = await page.evaluate(
      () => (window as unknown as { __layoutShift: { total: number } }).__layoutShift.total,
    );
    await context.close();
    return { page: path, cls: Math.round(cls * 1000) / 1000 };
  }

  it('shifts by no more than 0.05 on the details, profile, atelier and tree pages', async () => {
    const artist = seededArtist(gallery);
    const pages = [`/observe/cell/${publishedCellToken()}/details`, `/profile/${artist.token}`, '/observe'];
    const measured = [];
    for (const path of pages) measured.push(await layoutShiftOf(path));
    // The atelier of a seeded artist with published pieces, signed in through the API in that context.
    const member = await signUp(gallery, tab, 'Still', 'Atelier');
    const { db } = gallery.app.deps;
    const withArt = db.select({ id: users.id }).from(users).where(eq(users.token, artist.token)).get()!;
    db.update(art).set({ authorId: member.id }).where(eq(art.authorId, withArt.id)).run();
    db.update(users).set({ role: Role.Artist }).where(eq(users.id, member.id)).run();
    const cookies = await member.context.cookies();
    measured.push(await layoutShiftOf('/profile?tab=atelier', (context) => context.addCookies(cookies)));
    expect(measured.filter((m) => m.cls > 0.05)).toEqual([]);
  }, 120_000);
});
