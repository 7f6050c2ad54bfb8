/**
 * The staff dashboard in a real browser (decisions 012, 013): the demo admin reviews and publishes a fresh
 * piece (a second tab deciding it afterwards is told someone got there first); a visitor then finds it on the tree and
 * in search; the e-mails are in the outbox; observers and guests get the app's forbidden page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, CellType } from '#shared/domain.ts';
import { errorMessages } from '#client/locale/messages.ts';
import { register } from '#server/services/accounts/accounts.ts';
import { saveArt } from '#server/services/art/art.ts';
import { listPossibleConnections, saveConnections } from '#server/services/art/connections.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { subscribe } from '#server/services/squares/subscriptions.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { readOutbox } from '#tests/helpers/outbox.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { openPage, reusablePage, screenshotsTo } from '../helpers/browser/pages.ts';
import { treeReady } from '../helpers/browser/tree-page.ts';
import { E2E_ADMIN } from '../helpers/paths.ts';

let gallery: Gallery;
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
/** tRPC procedures the admin's pages sent as mutations (e.g. 'admin.publish'). */
let adminMutations: string[];

/** With ADMIN_SHOTS=<folder> set, the test saves screenshots of the overview and the review there. */
const shot = screenshotsTo(process.env.ADMIN_SHOTS);
const stamp = Date.now().toString(36);
const TITLE = `Lantern Moths ${stamp}`;
const CONNECTION_NOTE = 'The moths fly down towards the lamp in the square below.';

interface Person {
  id: number;
  token: string;
  role: number;
  email: string;
  name: string;
}

let artist: Person;
let subscriber: Person;
/** The square the artist's piece sits in, and the PENDING trunk square right above it that publishing opens. */
let square: { token: string; row: number; column: number };
let above: { token: string; row: number; column: number };
let artToken: string;

async function person(firstname: string, ip: string): Promise<Person> {
  const email = `${firstname.toLowerCase()}.${stamp}@example.com`;
  const { user } = await register(
    gallery.app.deps,
    { firstname, lastname: 'Tester', email, password: 'dashboard-pass-1!' },
    ip,
  );
  return { id: user.id, token: user.token, role: user.role, email, name: `${firstname} Tester` };
}

/** An AVAILABLE trunk square whose neighbour above is a PENDING trunk square, and that neighbour. */
async function squareAtTheTrunksEdge() {
  const { db } = gallery.app.deps;
  const tree = (await getDefaultTree(db))!;
  const trunk = db
    .select({ token: cells.token, row: cells.row, column: cells.column, status: cells.status })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.type, CellType.Trunk)))
    .orderBy(asc(cells.row), asc(cells.column))
    .all();
  const at = new Map(trunk.map((cell) => [`${cell.row}:${cell.column}`, cell]));
  for (const cell of trunk) {
    const up = at.get(`${cell.row - 1}:${cell.column}`);
    if (cell.status === CellStatus.Available && up?.status === CellStatus.Pending) return { cell, up };
  }
  throw new Error('The seeded tree has no available trunk square below a pending one.');
}

/** An artist submits a piece (with one proposed connection) through the art services, as the editor would. */
async function submitPiece(): Promise<string> {
  const ctx = gallery.app.deps;
  const viewer = { id: artist.id, role: artist.role, token: artist.token };
  const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#b0603a' } })
    .png()
    .toBuffer();
  const fields = {
    title: TITLE,
    category: 'Painting',
    subject: 'Nature',
    style: 'Contemporary',
    year: '2025',
    medium: ['Oil'],
    materials: ['Canvas'],
    width: '30',
    height: '40',
    depth: '2',
    units: 'cm',
    no_size: '0',
    keywords: ['moths', 'night'],
    description: 'Moths gathering at a lantern on a warm night.',
    ai_use: 'assisted',
  };
  const saved = await saveArt(ctx, viewer, square.token, { fields, slots: [{ file: image }], submit: true });
  const possible = await listPossibleConnections(ctx, viewer, square.token);
  if (possible[0]) {
    await saveConnections(ctx, viewer, square.token, {
      connections: [{ token: possible[0].token, status: 1, description: CONNECTION_NOTE }],
    });
  }
  return saved.art!.token;
}

/**
 * The page for visitors other than the admin, who keeps a context of their own through the file: one page, taken by
 * each visitor in turn as a new one (no cookies, no storage of the last).
 */
const visitors = reusablePage(() => browser, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });

/** The visitors' page, taken for `userId`, signed in (or a guest's, for null). */
async function browserFor(userId: number | null) {
  const opened = await visitors.take();
  if (userId !== null) {
    const session = await createSession(gallery.app.deps.db, gallery.app.deps.clock, userId);
    await opened.context.addCookies([{ name: SESSION_COOKIE, value: session.token, url: gallery.url }]);
  }
  return opened;
}

const artRow = () => gallery.app.deps.db.select({ status: art.status }).from(art).where(eq(art.token, artToken)).get()!;
const cellStatus = (token: string) =>
  gallery.app.deps.db.select({ status: cells.status }).from(cells).where(eq(cells.token, token)).get()!.status;

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser('cpu')]);
  artist = await person('Mira', '10.0.0.1');
  subscriber = await person('Oskar', '10.0.0.2');
  const edge = await squareAtTheTrunksEdge();
  square = edge.cell;
  above = edge.up;
  artToken = await submitPiece();
  await subscribe(gallery.app.deps, { id: subscriber.id, role: subscriber.role, token: subscriber.token }, above.token);

  admin = await openPage(browser, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  adminMutations = [];
  admin.context.on('request', (request) => {
    const match = /\/trpc\/([^?]+)/.exec(request.url());
    if (match && request.method() === 'POST') adminMutations.push(...match[1]!.split(','));
  });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('who may open the dashboard', () => {
  it('sends an observer and a guest to the app’s forbidden page', async () => {
    const observer = await person('Ines', '10.0.0.3');
    for (const userId of [observer.id, null]) {
      const visitor = await browserFor(userId);
      const answer = await visitor.page.goto(`${gallery.url}/admin/dashboard`);
      expect(answer!.status()).toBe(200);
      expect(new URL(visitor.page.url()).pathname).toBe('/forbidden');
      await visitor.page.getByRole('heading', { name: 'Forbidden' }).waitFor();
      expect(await visitor.page.locator('.page__code').textContent()).toBe('403');
      expect(await visitor.page.locator('.admin').count()).toBe(0);
      expect(visitor.errors).toEqual([]);
    }
  });
});

describe('the demo admin', () => {
  it('logs in and follows the header’s dashboard link into a page of its own', async () => {
    const { page } = admin;
    await page.goto(`${gallery.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(E2E_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.locator('header a[href="/profile"]').first().waitFor();

    await page.getByRole('button', { name: 'menu', exact: true }).click();
    const link = page.locator('[data-menu-item="dashboard"]');
    expect(await link.evaluate((element) => element.tagName)).toBe('A');
    // A full page load: what the app's page kept in memory is gone afterwards.
    await page.evaluate(() => ((window as unknown as { stillTheApp: boolean }).stillTheApp = true));
    await link.click();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard');
    await page.getByRole('heading', { name: 'overview.', level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stillTheApp?: boolean }).stillTheApp)).toBeUndefined();
    expect(await page.title()).toBe('overview. · dashboard · Gallery Tree');
  });

  it('sees the overview: what waits, and the growth charts drawn from the database', async () => {
    const { page } = admin;
    const waiting = page.locator('[data-count="submittedWaiting"] .admin-count__value');
    await waiting.waitFor();
    expect(Number(await waiting.textContent())).toBeGreaterThanOrEqual(1);
    await shot(page, 'overview');
    for (const chart of ['chart-published', 'chart-reservations', 'chart-users']) {
      const figure = page.getByTestId(chart);
      expect(await figure.locator('svg[role="img"]').count()).toBe(1);
    }
    // The seeded tree grew over past weeks: the published chart has bars above zero.
    const bars = await page
      .getByTestId('chart-published')
      .locator('rect')
      .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-value'))));
    expect(bars.length).toBeGreaterThan(4);
    expect(bars.some((value) => value > 0)).toBe(true);
    // The review section shows its waiting count in the navigation.
    expect(await page.locator('[data-section="review"] .admin-nav__count').textContent()).toMatch(/\d+/);
  });

  it('opens the review queue, oldest first, and the submitted piece with everything needed to decide', async () => {
    const { page } = admin;
    await page.locator('[data-section="review"]').click();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard/review');
    const rows = page.getByTestId('queue-item');
    await rows.first().waitFor();
    const order = await rows.evaluateAll((list) =>
      list.map((row) => row.querySelector('time')!.getAttribute('datetime')!),
    );
    expect([...order].sort()).toEqual(order);
    const ours = rows.filter({ hasText: TITLE });
    expect(await ours.count()).toBe(1);
    expect(await ours.textContent()).toContain(artist.name);

    await ours.getByRole('link', { name: `Review ${TITLE} by ${artist.name}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/dashboard/review/${artToken}`);
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();

    const picture = page.getByTestId('review-pictures').locator('img').first();
    await picture.waitFor();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="review-pictures"] img');
      return image?.complete === true && image.naturalWidth > 0;
    });
    expect(await page.getByTestId('review-ai-label').textContent()).toContain('Made with AI assistance');
    const fields = await page.getByTestId('review-fields').textContent();
    for (const text of [
      'Nature',
      'Contemporary',
      'Oil',
      'Canvas',
      '30 x 40 x 2 cm',
      'moths, night',
      'Moths gathering at a lantern',
      '2025',
    ]) {
      expect(fields).toContain(text);
    }
    expect(await page.getByTestId('review-place').textContent()).toContain(
      `Row ${square.row}, column ${square.column}`,
    );
    expect(await page.getByTestId('review-tree-link').getAttribute('href')).toBe(`/observe?cell=${square.token}`);
    expect(await page.getByTestId('review-connections').textContent()).toContain(CONNECTION_NOTE);
    expect(await page.getByTestId('review-artist').textContent()).toContain(artist.email);
    await shot(page, 'review-item');
  });

  it('refuses to request changes without a reason, in the page, sending nothing', async () => {
    const { page } = admin;
    const form = page.getByTestId('request-changes-form');
    await form.getByLabel('Reason for requesting changes').fill('   ');
    await form.getByRole('button', { name: 'Request changes' }).click();
    expect(await form.getByTestId('error-reason').textContent()).toBe('Reason cannot be blank.');
    expect(await form.getByLabel('Reason for requesting changes').getAttribute('aria-invalid')).toBe('true');
    expect(adminMutations).not.toContain('admin.requestChanges');
    expect(artRow().status).toBe(ArtStatus.Submitted);
    await shot(page, 'review-no-reason');
  });

  it('publishes the piece; a second tab deciding it afterwards is told someone got there first', async () => {
    const { page } = admin;
    // A colleague's tab (same admin, second page) has the same piece open.
    const other = await admin.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(`${gallery.url}/admin/dashboard/review/${artToken}`);
    await other.getByTestId('publish-button').waitFor();

    await page.getByTestId('publish-button').click();
    const notice = page.getByTestId('admin-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/^Published\. The artist has been e-mailed; .*opened\.$/);
    await page.getByTestId('review-decided').waitFor();
    expect(adminMutations.filter((name) => name === 'admin.publish')).toHaveLength(1);
    expect(artRow().status).toBe(ArtStatus.Published);
    expect(cellStatus(square.token)).toBe(CellStatus.Published);
    expect(cellStatus(above.token)).toBe(CellStatus.Available);

    await other.getByTestId('publish-button').click();
    const refusal = other.getByTestId('admin-notice');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(errorMessages.art_not_submitted);
    expect(await refusal.getAttribute('role')).toBe('alert');
    await other.getByTestId('review-decided').waitFor();
    // The refused call is the browser's own console line for the 409; nothing else went wrong.
    expect(otherErrors.filter((line) => !/status of 409/.test(line))).toEqual([]);
    await other.close();

    // Back in the queue, the piece is gone.
    await page.getByRole('link', { name: 'Back to the queue' }).click();
    await page.getByRole('heading', { name: 'review.', level: 1 }).waitFor();
    await page.waitForFunction(
      (title) => !document.querySelector('[data-testid="review-queue"]')?.textContent?.includes(title),
      TITLE,
    );
  });

  it('shows the publication in the staff log', async () => {
    const { page } = admin;
    await page.locator('[data-section="log"]').click();
    // Newest first: the publication is the latest staff action, with who did it.
    const entry = page.getByTestId('log-entry').first();
    await entry.waitFor();
    expect(await entry.getAttribute('data-action')).toBe('publish');
    expect(await entry.textContent()).toContain('Published a piece');
    expect(await entry.locator('td').nth(1).textContent()).not.toBe('');
  });

  it('ran without console errors or Content Security Policy violations', () => {
    expect(admin.errors).toEqual([]);
  });
});

describe('a visitor after the publication', () => {
  let visitor: Awaited<ReturnType<typeof browserFor>>;

  beforeAll(async () => {
    visitor = await browserFor(null);
  });

  it('sees the piece on the tree, and the square above it now available', async () => {
    const { page } = visitor;
    await page.goto(`${gallery.url}/observe?cell=${square.token}&zoom=1`);
    await treeReady(page);
    await page.waitForFunction(() => !window.__treeStats!.flying);
    while (!(await page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))))
      await page.keyboard.press('Tab');
    const live = page.getByTestId('tree-focus-description');
    await page.waitForFunction(
      (title) => document.querySelector('[data-testid="tree-focus-description"]')?.textContent?.includes(title),
      TITLE,
    );
    expect(await live.textContent()).toBe(
      `row ${square.row}, column ${square.column}: published — ${TITLE} by ${artist.name}`,
    );

    await page.keyboard.press('ArrowUp');
    expect(await live.textContent()).toBe(
      `row ${above.row}, column ${above.column}: available square. Press Enter to reserve it.`,
    );
  });

  it('finds the piece in search', async () => {
    const { page } = visitor;
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill(TITLE);
    await box.press('Enter');
    const result = page.getByTestId('search-popup').getByTestId('search-result').filter({ hasText: TITLE });
    await result.waitFor();
    expect(await result.textContent()).toContain(artist.name);
    expect(visitor.errors).toEqual([]);
  });
});

describe('the e-mails', () => {
  it('tells the artist their piece is live, with its link, and the subscriber that the square is available', async () => {
    await deliverOutbox(gallery.app.deps);
    const mails = readOutbox(gallery.app.deps.config.outboxDir);
    const live = mails.filter((mail) => mail.to.includes(artist.email) && /live/i.test(mail.subject));
    expect(live).toHaveLength(1);
    expect(live[0]!.text).toContain(square.token);
    const toSubscriber = mails.filter((mail) => mail.to.includes(subscriber.email));
    expect(toSubscriber).toHaveLength(1);
    expect(toSubscriber[0]!.text).toContain(`/observe?cell=${above.token}`);
  });
});
