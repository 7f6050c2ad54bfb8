/**
 * Reservations in a real browser (docs/product.md, Reservations): the reserve popup's steps for a trunk square
 * and a branch slot, subscribing, the reminder's link to the extend page (once, then refused), extending from the
 * square itself, the edit-reserved-cell popup, guests and small screens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cells, reservations, subscriptions, users } from '#drizzle/schema.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { sendReservationReminders } from '#server/services/reservations/reservation-jobs.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { linkIn, readOutbox } from '#tests/helpers/outbox.ts';
import type {} from '#client/tree/use-tree-snapshot.ts';
import {
  failedLoad,
  launchBrowser,
  postFromPage,
  releaseBrowser,
  startGallery,
  type Gallery,
  watchErrors,
} from '../helpers/browser/harness.ts';
import { openPage, reusablePage, screenshotsTo, WIDE, type OpenedPage } from '../helpers/browser/pages.ts';
import { cellsWith, openTree, pointOf, settled, treeReady } from '../helpers/browser/tree-page.ts';

const DAY_MS = 86_400_000;
/** With RESERVATION_SHOTS=<folder> set, the test saves screenshots of the popups and the extend page there. */
const screenshot = screenshotsTo(process.env.RESERVATION_SHOTS, { fullPage: false, pauseMs: 250 });

let gallery: Gallery;
let browser: Browser;
/**
 * One page for the visits that end with their test: a guest, a member's later browser session, a member who is not
 * needed again. The first and second members keep contexts of their own: their pages stay open on the tree while
 * others act, through several tests.
 */
const reused = reusablePage(() => browser, { locale: 'en-US' });

interface Member {
  context: BrowserContext;
  page: Page;
  errors: string[];
  email: string;
  userId: number;
}

let first: Member;
let second: Member;
/** The trunk square the first member reserves. */
let trunk: { token: string; row: number; column: number };

/** A new member, signed up from the page: in a context of their own, or on `opened` (a reused page taken for them). */
async function member(name: string, opened?: OpenedPage): Promise<Member> {
  const { context, page, errors } = opened ?? (await openPage(browser, { viewport: WIDE, locale: 'en-US' }));
  const email = `${name}.${Date.now().toString(36)}@example.com`;
  await page.goto(`${gallery.url}/`);
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
  const status = await postFromPage(page, '/api/register', {
    firstname: 'Test',
    lastname: 'Member',
    email,
    password: 'reserve-pass-1!',
  });
  expect(status).toBe(200);
  await page.reload();
  await page.locator('header a[href="/profile"]').first().waitFor();
  const { db } = gallery.app.deps;
  const userId = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
  return { context, page, errors, email, userId };
}

/**
 * The same member after the browser was closed and opened again, on the reused page: the login cookie (which has an
 * expiry) is kept, the cookies that last a browser session are gone, sessionStorage is new: the prompt state is new.
 * (The app keeps nothing of a member in localStorage, which the page starts without.)
 */
async function freshSession(of: Member, viewport = WIDE): Promise<OpenedPage> {
  const { cookies } = await of.context.storageState();
  const opened = await reused.take({ viewport });
  await opened.context.addCookies(cookies.filter((cookie) => cookie.expires !== -1));
  return opened;
}

/** Answers "No, later" to the edit-reserved-cell popup a fresh session of a member with a draft gets on its first page. */
async function dismissPrompt(page: Page): Promise<void> {
  await page.goto(`${gallery.url}/`);
  const popup = page.getByTestId('edit-reserved-cell-popup');
  await popup.waitFor();
  await popup.getByRole('button', { name: 'No, later' }).click();
  await popup.waitFor({ state: 'detached' });
}

/** Opens the tree centred on (row, column) and clicks that square. */
async function clickSquare(page: Page, row: number, column: number, beforeClick?: () => Promise<void>): Promise<void> {
  await openTree(page, gallery, `?row=${row}&col=${column}&zoom=1`);
  await settled(page);
  const point = await pointOf(page, { row, column });
  await beforeClick?.();
  await page.mouse.click(point.x, point.y);
}

async function defaultTree() {
  return (await getDefaultTree(gallery.app.deps.db))!;
}

const cellsOf = (status: number) => cellsWith(gallery, status);

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  [first, second] = [await member('first'), await member('second')];
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('reserving a trunk square', () => {
  it('goes step 0 → 1 → no → 2 with the date 14 days ahead, and the tree on screen catches up with it', async () => {
    const { page } = first;
    trunk = (await cellsOf(CellStatus.Available)).find((cell) => cell.type === 1)!;
    expect(trunk).toBeDefined();
    await clickSquare(page, trunk.row, trunk.column);
    const popup = page.getByTestId('reserve-popup');
    await popup.waitFor();
    await popup.getByTestId('reserve-step-0').waitFor();
    expect(await popup.textContent()).toContain('Would you like to reserve this square?');
    const submit = popup.getByRole('button', { name: 'Submit' });
    // Nothing chosen, nothing to send.
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'reserve-step-0-1280');
    await popup.getByLabel('Yes', { exact: true }).check();
    expect(await submit.isEnabled()).toBe(true);

    const treeRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/tree/')) treeRequests.push(new URL(request.url()).pathname);
    });
    await submit.click();
    await popup.getByTestId('reserve-step-1').waitFor();
    expect(await popup.textContent()).toContain('Ready to upload your piece now?');

    // The tree on screen asks for the change at once and applies it in place (the live tree).
    const { db } = gallery.app.deps;
    expect(db.select({ status: cells.status }).from(cells).where(eq(cells.token, trunk.token)).get()!.status).toBe(
      CellStatus.Reserved,
    );
    const { version } = await defaultTree();
    await expect
      .poll(() => page.evaluate(() => window.__treeLive?.version ?? 0), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(version);
    expect(treeRequests.some((path) => path.endsWith('/changes'))).toBe(true);
    expect(treeRequests.filter((path) => /^\/api\/tree\/[^/]+$/.test(path))).toEqual([]);

    await popup.getByLabel('No', { exact: true }).check();
    await popup.getByRole('button', { name: 'Submit' }).click();
    await popup.getByTestId('reserve-step-2').waitFor();
    // Deadlines are written out one way everywhere (a numeric date reads differently abroad).
    const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(Date.now() + 14 * DAY_MS);
    expect(await popup.getByTestId('reserve-deadline').textContent()).toBe(expected);
    expect(await popup.textContent()).toContain(`You have until ${expected} to upload your piece`);
    await screenshot(page, 'reserve-step-2-1280');
    // The square the user just reserved is not asked about by the edit-reserved-cell popup.
    await popup.getByRole('button', { name: 'Done' }).click();
    await popup.waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    expect(await page.getByTestId('edit-reserved-cell-popup').count()).toBe(0);
    expect(first.errors).toEqual([]);
  });

  it('tells a member who holds a square so before anything is chosen, with the way to it', async () => {
    const { page } = first;
    const other = (await cellsOf(CellStatus.Available)).find((cell) => cell.type === 1 && cell.token !== trunk?.token)!;
    await clickSquare(page, other.row, other.column);
    const popup = page.getByTestId('reserve-popup');
    const held = popup.getByTestId('reserve-held');
    await held.waitFor();
    expect(await held.textContent()).toContain(`You already hold a square (row ${trunk.row}, column ${trunk.column})`);
    expect(await popup.getByTestId('reserve-step-0').count()).toBe(0);
    expect(await held.getByRole('link', { name: 'Open your square' }).getAttribute('href')).toBe(
      `/observe/cell/${trunk.token}/edit`,
    );
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
  });

  it('answers a reservation this page did not know about with the localized already-reserved message', async () => {
    // A member who reserved in another tab: this page still thinks they hold nothing.
    const late = await member('late', await reused.take());
    const [held, other] = (await cellsOf(CellStatus.Available)).filter((cell) => cell.type === 1);
    await clickSquare(late.page, other!.row, other!.column, async () => {
      expect(await postFromPage(late.page, `/api/cell/${held!.token}/reserve`, {})).toBe(200);
    });
    const popup = late.page.getByTestId('reserve-popup');
    await popup.getByLabel('Yes', { exact: true }).check();
    const before = late.errors.length;
    await popup.getByRole('button', { name: 'Submit' }).click();
    await popup.getByRole('alert').waitFor();
    // The 409 the server answered is the only console line it caused, and it is expected: take it out.
    const provoked = late.errors.splice(before);
    expect(provoked.every((text) => failedLoad(409).test(text))).toBe(true);
    expect(await popup.getByRole('alert').textContent()).toBe(
      'You already hold a reserved square. Upload your piece there before reserving another.',
    );
    expect(await popup.getByTestId('reserve-step-0').count()).toBe(1);
    expect(late.errors).toEqual([]);
  });
});

describe('a second member', () => {
  it("reserves a branch slot and, ready to upload, lands on the new square's editor", async () => {
    const { page } = second;
    const tree = await defaultTree();
    const settings = tree.settings as TreeSettings;
    const all = gallery.app.deps.db
      .select({ row: cells.row, column: cells.column, status: cells.status })
      .from(cells)
      .where(eq(cells.treeId, tree.id))
      .all();
    const slot = computeBranchSlots(settings, gridOfCells(all))[0]!;
    expect(slot).toBeDefined();
    await clickSquare(page, slot.row, slot.column);
    const popup = page.getByTestId('reserve-popup');
    await popup.waitFor();
    expect(await popup.getByTestId('cell-facts').textContent()).toContain('a new branch slot');
    await popup.getByLabel('Yes', { exact: true }).check();
    await popup.getByRole('button', { name: 'Submit' }).click();
    await popup.getByTestId('reserve-step-1').waitFor();
    const created = gallery.app.deps.db
      .select({ token: cells.token, status: cells.status, type: cells.type })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.row, slot.row), eq(cells.column, slot.column)))
      .get()!;
    expect(created).toMatchObject({ status: CellStatus.Reserved, type: 3 });
    await popup.getByLabel('Yes', { exact: true }).check();
    await popup.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === `/observe/cell/${created.token}/edit`);
    expect(await page.getByTestId('edit-reserved-cell-popup').count()).toBe(0);
  });

  it("subscribes to the first member's reserved square", async () => {
    const { page } = second;
    await clickSquare(page, trunk.row, trunk.column);
    const popup = page.getByTestId('subscribe-popup');
    await popup.waitFor();
    expect(await popup.getByTestId('subscribe-reserved-note').textContent()).toBe(
      'This square is currently reserved. However, you can still request the following.',
    );
    const submit = popup.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    expect(await popup.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true);
    await screenshot(page, 'subscribe-1280');
    await popup.getByLabel('Tell me when this square becomes available').check();
    await submit.click();
    await popup.getByTestId('subscribe-done').waitFor();
    expect(await popup.textContent()).toContain('We will e-mail you as soon as this square becomes available.');
    const { db } = gallery.app.deps;
    const cellId = db.select({ id: cells.id }).from(cells).where(eq(cells.token, trunk.token)).get()!.id;
    const rows = db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, second.userId),
          eq(subscriptions.cellId, cellId),
          isNull(subscriptions.notifiedAt),
        ),
      )
      .all();
    expect(rows).toHaveLength(1);
    await popup.getByRole('button', { name: 'Done' }).click();
    await popup.waitFor({ state: 'detached' });
    expect(second.errors).toEqual([]);
  });
});

describe("the first member's reminder and extension", () => {
  let extendUrl: string;

  it('gets a reminder e-mail a week on, whose link opens the extend page (without the edit-reserved-cell popup)', async () => {
    const later = { ...gallery.app.deps, clock: { now: () => Date.now() + 8 * DAY_MS } };
    expect(await sendReservationReminders(later)).toBeGreaterThanOrEqual(1);
    await deliverOutbox(later);
    const mail = readOutbox(gallery.app.deps.config.outboxDir).find((m) => m.to.includes(first.email))!;
    expect(mail).toBeDefined();
    const link = new URL(linkIn(mail, /https?:\/\/\S+\/extend/));
    extendUrl = `${gallery.url}${link.pathname}`;
    expect(link.pathname).toMatch(new RegExp(`^/observe/cell/${trunk.token}/reserve/[A-Za-z0-9_-]+/extend$`));

    const { page } = await freshSession(first);
    await page.goto(extendUrl);
    await page.getByTestId('extend-form').waitFor();
    expect(await page.locator('.extend h1').textContent()).toBe('extend reserve.');
    expect(await page.textContent('[data-testid="extend-form"]')).toContain(
      'Would you like to extend reservation of this square?',
    );
    await page.waitForTimeout(500);
    expect(await page.getByTestId('edit-reserved-cell-popup').count()).toBe(0);
  });

  it('extends once with Yes → SUBMIT and names the new midnight; opening the link again says it cannot', async () => {
    // The reused page was reset as the last test ended: the member opens the link again.
    const extendTab = await freshSession(first);
    const { page } = extendTab;
    await page.goto(extendUrl);
    await page.getByTestId('extend-form').waitFor();
    const submit = page.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'extend-1280');
    await page.getByLabel('Yes', { exact: true }).check();
    await submit.click();
    await page.getByTestId('extend-success').waitFor();
    const { db } = gallery.app.deps;
    const held = db
      .select({ expiresAt: reservations.expiresAt, extended: reservations.extended })
      .from(reservations)
      .where(and(eq(reservations.userId, first.userId), eq(reservations.state, 'active')))
      .get()!;
    expect(held.extended).toBe(true);
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(held.expiresAt);
    expect(await page.getByTestId('extend-success').textContent()).toContain(
      `Your reservation has been extended until midnight on ${date}, after which the square is released to the community.`,
    );
    await screenshot(page, 'extend-success-1280');

    await page.goto(extendUrl);
    await page.getByTestId('extend-not-allowed').waitFor();
    // Why, and until when the square is held.
    expect(await page.getByTestId('extend-not-allowed').getByRole('alert').textContent()).toBe(
      `This reservation has already had its one extension: the square is yours until midnight on ${date}.`,
    );
    await screenshot(page, 'extend-not-allowed-1280');
    // Closing goes back to the tree at the member's square, and the prompt stays cleared there.
    await page.getByRole('button', { name: 'Back to the tree' }).click();
    await page.waitForURL((url) => url.pathname === '/observe');
    await treeReady(page);
    await expect
      .poll(() => {
        const params = new URL(page.url()).searchParams;
        return params.get('cell') === trunk.token || [params.get('row'), params.get('col')].join();
      })
      .toSatisfy((at) => at === true || at === `${trunk.row},${trunk.column}`);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('edit-reserved-cell-popup').count()).toBe(0);
    expect(extendTab.errors).toEqual([]);
  });
});

describe('the edit-reserved-cell popup', () => {
  it('greets a member with a draft once a browser session (every tab), never over a link to a piece; Yes opens the editor', async () => {
    const tab = await freshSession(first);
    const { page } = tab;
    await page.goto(`${gallery.url}/`);
    const popup = page.getByTestId('edit-reserved-cell-popup');
    await popup.waitFor();
    expect(await popup.textContent()).toContain(
      'You have a reserved square waiting for your piece. Continue working on it?',
    );
    await screenshot(page, 'edit-reserved-1280');
    await popup.getByRole('button', { name: 'No, later' }).click();
    await popup.waitFor({ state: 'detached' });
    await page.locator('[data-welcome-link="learn"]').click();
    await page.waitForURL((url) => url.pathname === '/learn');
    await page.reload();
    await page.waitForTimeout(600);
    expect(await popup.count()).toBe(0);
    // Nor in another tab of the same browser.
    const otherTab = await tab.context.newPage();
    const otherErrors = watchErrors(otherTab);
    await otherTab.goto(`${gallery.url}/`);
    await otherTab.locator('[data-welcome-link="learn"]').waitFor();
    await otherTab.waitForTimeout(600);
    expect(await otherTab.getByTestId('edit-reserved-cell-popup').count()).toBe(0);
    expect(tab.errors).toEqual([]);
    expect(otherErrors).toEqual([]);

    // A new visit that starts on a link to someone's piece sees that piece; the question waits for the next page.
    const again = await freshSession(first);
    const published = (await cellsOf(CellStatus.Published)).find((cell) => cell.token !== trunk.token)!;
    await again.page.goto(`${gallery.url}/observe/cell/${published.token}/details`);
    await again.page.getByRole('heading', { level: 1 }).waitFor();
    await again.page.waitForTimeout(600);
    const asked = again.page.getByTestId('edit-reserved-cell-popup');
    expect(await asked.count()).toBe(0);
    await again.page.getByRole('link', { name: 'Gallery Tree, welcome page' }).click();
    await asked.waitFor();
    await asked.getByRole('button', { name: 'Yes, continue' }).click();
    await again.page.waitForURL((url) => url.pathname === `/observe/cell/${trunk.token}/edit`);
    expect(await asked.count()).toBe(0);
    expect(again.errors).toEqual([]);
    expect(first.errors).toEqual([]);
  });
});

describe('extending from the square itself', () => {
  it("offers the week on the edit-reserved popup, the atelier and the editor, dated in the site's zone for a visitor far east", async () => {
    // The site keeps UTC; this visitor's clock is in Auckland, where a UTC midnight is already the next day. A time
    // zone is a context's option: this visitor has a context of their own.
    const { context, page, errors } = await openPage(browser, { locale: 'en-US', timezoneId: 'Pacific/Auckland' });
    await page.goto(`${gallery.url}/`);
    await page.waitForFunction(() => !document.querySelector('.shell__loading'));
    const email = `far.east.${Date.now().toString(36)}@example.com`;
    expect(
      await postFromPage(page, '/api/register', {
        firstname: 'Far',
        lastname: 'East',
        email,
        password: 'reserve-pass-1!',
      }),
    ).toBe(200);
    const square = (await cellsOf(CellStatus.Available)).find(
      (cell) => cell.type === 1 && cell.token !== trunk?.token,
    )!;
    expect(await postFromPage(page, `/api/cell/${square.token}/reserve`, {})).toBe(200);

    const { db } = gallery.app.deps;
    const userId = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
    // An artist already (the atelier is an artist's tab), holding a new square.
    db.update(users).set({ role: Role.Artist }).where(eq(users.id, userId)).run();
    const heldNow = () =>
      db
        .select()
        .from(reservations)
        .where(and(eq(reservations.userId, userId), eq(reservations.state, 'active')))
        .get()!;
    const deadline = new Date(heldNow().expiresAt);
    const until = Date.UTC(
      deadline.getUTCFullYear(),
      deadline.getUTCMonth(),
      deadline.getUTCDate() + 7,
      23,
      59,
      59,
      999,
    );
    const untilText = `${new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(until)} (UTC)`;

    // The edit-reserved popup, on the first page of the visit.
    await page.goto(`${gallery.url}/`);
    const popup = page.getByTestId('edit-reserved-cell-popup');
    await popup.waitFor();
    expect(await popup.getByTestId('extend-offer').textContent()).toContain(
      `You can extend once, by one week, until ${untilText}.`,
    );
    await popup.getByRole('button', { name: 'No, later' }).click();

    // The atelier's row of the held square.
    await page.goto(`${gallery.url}/profile?tab=atelier`);
    const row = page.getByTestId('atelier-row').filter({ has: page.getByTestId('atelier-upload') });
    await row.waitFor();
    expect(await row.getByTestId('atelier-upload').textContent()).toBe('UPLOAD ARTWORK');
    expect(await row.getByTestId('extend-link').getAttribute('href')).toBe(
      `/observe/cell/${square.token}/reserve/${heldNow().token}/extend`,
    );

    // The editor of the square: the deadline, and the way to the extend page.
    await page.goto(`${gallery.url}/observe/cell/${square.token}/edit`);
    const held = page.getByTestId('editor-held');
    await held.waitFor();
    expect(await held.textContent()).toContain('This square is held for you until');
    await screenshot(page, 'editor-extend-offer-1280');
    await held.getByTestId('extend-link').click();
    await page.waitForURL((url) => url.pathname.endsWith('/extend'));
    await page.getByLabel('Yes', { exact: true }).check();
    await page.getByRole('button', { name: 'SUBMIT' }).click();
    await page.getByTestId('extend-success').waitFor();
    expect(await page.getByTestId('extend-success').textContent()).toContain(`extended until midnight on ${untilText}`);
    expect(heldNow()).toMatchObject({ extended: true, expiresAt: until });

    // Used once: the editor no longer offers it.
    await page.goto(`${gallery.url}/observe/cell/${square.token}/edit`);
    await held.waitFor();
    await page.waitForTimeout(300);
    expect(await held.getByTestId('extend-offer').count()).toBe(0);
    await screenshot(page, 'editor-held-1280');
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('guests and small screens', () => {
  it('asks a guest to log in or register', async () => {
    const { page: guest, errors } = await reused.take({ viewport: { width: 360, height: 740 } });
    const other = (await cellsOf(CellStatus.Available)).find((cell) => cell.type === 1)!;
    await clickSquare(guest, other.row, other.column);
    const popup = guest.getByTestId('reserve-popup');
    await popup.waitFor();
    await popup.getByTestId('guest-prompt').waitFor();
    // Both come back to this square afterwards.
    const back = encodeURIComponent(`/observe?cell=${other.token}`);
    expect(await popup.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(`/login?next=${back}`);
    expect(await popup.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe(`/registration?next=${back}`);
    await screenshot(guest, 'reserve-guest-360');

    await popup.getByRole('link', { name: 'Log in' }).click();
    await guest.waitForURL((url) => url.pathname === '/login');
    await guest.locator('input[name="username"]').fill(second.email);
    await guest.locator('input[name="password"]').fill('reserve-pass-1!');
    await guest
      .locator('main form')
      .getByRole('button', { name: /log in/i })
      .click();
    // The tree again, centred on that square (the address then names it by its place).
    await guest.waitForURL((url) => url.pathname === '/observe');
    await treeReady(guest);
    await expect
      .poll(() => {
        const params = new URL(guest.url()).searchParams;
        return params.get('cell') === other.token || [params.get('row'), params.get('col')].join();
      })
      .toSatisfy((at) => at === true || at === `${other.row},${other.column}`);
    expect(errors).toEqual([]);
  });

  it("works at 360 px: a member's subscribe choice, No on the extend page closes it, a new member's steps 0 → 2", async () => {
    const { page, errors } = await freshSession(second, { width: 360, height: 740 });
    await dismissPrompt(page);
    await clickSquare(page, trunk.row, trunk.column);
    await page.getByTestId('subscribe-form').waitFor();
    await page.getByLabel('Tell me when any square becomes available').check();
    await screenshot(page, 'subscribe-360');
    // Asking again about the same square: the localized message for already_subscribed (a 409, expected).
    await page.getByLabel('Tell me when this square becomes available').check();
    const before = errors.length;
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('subscribe-popup').getByRole('alert').waitFor();
    expect(await page.getByTestId('subscribe-popup').getByRole('alert').textContent()).toBe(
      'You have already asked to be told about this.',
    );
    expect(errors.splice(before).every((text) => failedLoad(409).test(text))).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('subscribe-popup').waitFor({ state: 'detached' });
    // The second member's reservation got its reminder too: its extend page, unanswered.
    const mail = readOutbox(gallery.app.deps.config.outboxDir).find((m) => m.to.includes(second.email))!;
    await page.goto(`${gallery.url}${new URL(linkIn(mail, /https?:\/\/\S+\/extend/)).pathname}`);
    await page.getByTestId('extend-form').waitFor();
    await page.getByLabel('Yes', { exact: true }).check();
    await screenshot(page, 'extend-360');
    // No just closes: back to the tree, nothing extended.
    await page.getByLabel('No', { exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/observe');
    const held = gallery.app.deps.db
      .select({ extended: reservations.extended })
      .from(reservations)
      .where(and(eq(reservations.userId, second.userId), eq(reservations.state, 'active')))
      .get()!;
    expect(held.extended).toBe(false);
    expect(errors).toEqual([]);

    // A third member reserves at 360 px: steps 0 and 2.
    const third = await member('third', await reused.take({ viewport: { width: 360, height: 740 } }));
    const next = (await cellsOf(CellStatus.Available)).find((cell) => cell.type === 1)!;
    await clickSquare(third.page, next.row, next.column);
    const reserve = third.page.getByTestId('reserve-popup');
    await reserve.getByTestId('reserve-step-0').waitFor();
    await screenshot(third.page, 'reserve-step-0-360');
    await reserve.getByLabel('Yes', { exact: true }).check();
    await reserve.getByRole('button', { name: 'Submit' }).click();
    await reserve.getByLabel('No', { exact: true }).check();
    await screenshot(third.page, 'reserve-step-1-360');
    await reserve.getByRole('button', { name: 'Submit' }).click();
    await reserve.getByTestId('reserve-step-2').waitFor();
    await screenshot(third.page, 'reserve-step-2-360');
    expect(third.errors).toEqual([]);
  });
});
