/**
 * The dashboard's other sections in a real browser: removals declined (a reason required) and accepted, a
 * contact message handled, a member's role changed, disabled and enabled (never the admin's own row), a reservation
 * released, and every action in the staff log. The dashboard never loads the tree's renderer (PixiJS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells, contactMessages, removalRequests, reservations, sessions, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { register } from '#server/services/accounts/accounts.ts';
import { sendContactMessage } from '#server/services/mail/contact.ts';
import { requestRemoval } from '#server/services/art/removal-requests.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { E2E_ADMIN } from '../helpers/paths.ts';

let gallery: Gallery;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
/** tRPC procedures the dashboard sent as mutations. */
let mutations: string[];
/** Every script the dashboard loaded. */
let scripts: string[];

const stamp = Date.now().toString(36);
const SUBJECT = `Opening hours ${stamp}`;
let member: { id: number; email: string };
/** Two published pieces whose artists asked for their removal: one to decline, one to accept. */
let toDecline: { title: string; cellToken: string; artId: number };
let toAccept: { title: string; cellToken: string; artId: number };

const db = () => gallery.app.deps.db;
const open = async (section: string) => {
  await page.locator(`[data-section="${section}"]`).click();
  await page.getByRole('heading', { name: `${section}.`, level: 1 }).waitFor();
};
/** Waits for the section's notice to say `text` (each action replaces the last one's), and answers all it says. */
const noticeSaying = async (text: string | RegExp) => {
  const line = page.getByTestId('admin-notice').filter({ hasText: text });
  await line.waitFor();
  return (await line.textContent())!;
};

function publishedPieces(n: number) {
  return db()
    .select({
      title: art.title,
      cellToken: cells.token,
      artId: art.id,
      authorId: art.authorId,
      role: users.role,
      token: users.token,
    })
    .from(art)
    .innerJoin(cells, eq(cells.id, art.cellId))
    .innerJoin(users, eq(users.id, art.authorId))
    .where(eq(art.status, ArtStatus.Published))
    .orderBy(asc(art.id))
    .all()
    .filter((piece, index, all) => all.findIndex((other) => other.authorId === piece.authorId) === index)
    .slice(0, n);
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  const ctx = gallery.app.deps;
  const email = `ruth.${stamp}@example.com`;
  const { user } = await register(
    ctx,
    { firstname: 'Ruth', lastname: 'Member', email, password: 'sections-pass-1!' },
    '10.0.1.1',
  );
  member = { id: user.id, email };
  await sendContactMessage(
    ctx,
    { email: 'visitor@example.com', reason: 'Question', subject: SUBJECT, message: 'Is the gallery open on holidays?' },
    '10.0.1.2',
    null,
  );
  const [first, second] = publishedPieces(2);
  for (const piece of [first!, second!]) {
    await requestRemoval(
      ctx,
      { id: piece.authorId, role: piece.role, token: piece.token },
      piece.cellToken,
      `Please take down “${piece.title}”.`,
    );
  }
  toDecline = first!;
  toAccept = second!;

  const adminId = db().select({ id: users.id }).from(users).where(eq(users.email, E2E_ADMIN.email)).get()!.id;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await context.addCookies([
    { name: SESSION_COOKIE, value: (await createSession(db(), ctx.clock, adminId)).token, url: gallery.url },
  ]);
  page = await context.newPage();
  errors = watchErrors(page);
  mutations = [];
  scripts = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    const match = /\/trpc\/([^?]+)/.exec(request.url());
    if (match && request.method() === 'POST') mutations.push(...match[1]!.split(','));
  });
  await page.goto(`${gallery.url}/admin/dashboard`);
  await page.getByRole('heading', { name: 'overview.', level: 1 }).waitFor();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('removals', () => {
  it('declines a request only with a reason', async () => {
    await open('removals');
    const card = page.getByTestId('removal-request').filter({ hasText: toDecline.title });
    expect(await card.textContent()).toContain(`Please take down “${toDecline.title}”.`);
    await card.getByRole('button', { name: 'Decline…' }).click();
    await card.getByRole('button', { name: 'Decline the request' }).click();
    expect(await card.getByTestId('error-reason').textContent()).toBe('Reason cannot be blank.');
    expect(mutations).not.toContain('admin.declineRemoval');

    await card.getByLabel('Reason for declining').fill('The piece follows The Ground; it stays.');
    await card.getByRole('button', { name: 'Decline the request' }).click();
    expect(await noticeSaying('Removal declined')).toMatch(
      /^Removal declined: the artist of “.+” receives your reason\.$/,
    );
    await card.waitFor({ state: 'detached' });
    const row = db()
      .select({ state: removalRequests.state })
      .from(removalRequests)
      .where(eq(removalRequests.artId, toDecline.artId))
      .get()!;
    expect(row.state).toBe('declined');
  });

  it('accepts the other after a confirm: the piece is removed and its square available', async () => {
    const card = page.getByTestId('removal-request').filter({ hasText: toAccept.title });
    await card.getByRole('button', { name: 'Accept' }).click();
    const confirm = card.getByRole('button', { name: 'Yes, take it down' });
    expect(await confirm.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(mutations).not.toContain('admin.acceptRemoval');
    await confirm.click();
    expect(await noticeSaying('Removal accepted')).toBe(
      `Removal accepted: “${toAccept.title}” is taken down and its artist told.`,
    );
    await card.waitFor({ state: 'detached' });
    expect(db().select({ status: art.status }).from(art).where(eq(art.id, toAccept.artId)).get()!.status).toBe(
      ArtStatus.Removed,
    );
    expect(
      db().select({ status: cells.status }).from(cells).where(eq(cells.token, toAccept.cellToken)).get()!.status,
    ).toBe(CellStatus.Available);

    await page.getByRole('button', { name: 'Declined', exact: true }).click();
    await page
      .getByTestId('removal-request')
      .filter({ hasText: toDecline.title })
      .getByText('The piece follows The Ground; it stays.')
      .waitFor();
  });
});

describe('messages', () => {
  it('shows a message in full and marks it handled', async () => {
    await open('messages');
    const card = page.getByTestId('message').filter({ hasText: SUBJECT });
    expect(await card.textContent()).toContain('Is the gallery open on holidays?');
    expect(await card.getByRole('link', { name: 'Reply by e-mail' }).getAttribute('href')).toMatch(
      /^mailto:visitor@example\.com\?subject=Re%3A%20Opening/,
    );
    await card.getByRole('button', { name: 'Mark handled' }).click();
    expect(await noticeSaying('is marked handled')).toBe(`“${SUBJECT}” is marked handled.`);
    await card.waitFor({ state: 'detached' });
    expect(
      db()
        .select({ handledAt: contactMessages.handledAt })
        .from(contactMessages)
        .where(eq(contactMessages.subject, SUBJECT))
        .get()!.handledAt,
    ).not.toBeNull();
    await page.getByRole('button', { name: 'Handled', exact: true }).click();
    await page
      .getByTestId('message')
      .filter({ hasText: SUBJECT })
      .getByText(/^Handled by /)
      .waitFor();
  });
});

describe('users', () => {
  const memberRow = () => page.getByTestId('user-row').filter({ hasText: member.email });

  it('finds a member by e-mail and changes their role', async () => {
    await open('users');
    await page.getByLabel('Name or e-mail').fill(member.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    await memberRow().getByLabel('Role of Ruth Member').selectOption(String(Role.Artist));
    await memberRow().getByRole('button', { name: 'Save role' }).click();
    await noticeSaying('Ruth Member is now: Artist.');
    expect(db().select({ role: users.role }).from(users).where(eq(users.id, member.id)).get()!.role).toBe(Role.Artist);
  });

  it('disables the account after a confirm, ending its sessions, and enables it again', async () => {
    await createSession(db(), gallery.app.deps.clock, member.id);
    await memberRow().getByRole('button', { name: 'Disable' }).click();
    await memberRow().getByRole('button', { name: 'Yes, disable' }).click();
    await noticeSaying('Ruth Member is disabled and logged out.');
    await memberRow().getByText('disabled', { exact: true }).waitFor();
    expect(
      db().select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, member.id)).get()!.disabledAt,
    ).not.toBeNull();
    expect(db().select({ n: count() }).from(sessions).where(eq(sessions.userId, member.id)).get()!.n).toBe(0);

    await memberRow().getByRole('button', { name: 'Enable' }).click();
    await noticeSaying('Ruth Member can log in again.');
    await memberRow().getByRole('button', { name: 'Disable' }).waitFor();
    expect(
      db().select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, member.id)).get()!.disabledAt,
    ).toBeNull();
  });

  it('lists the members of one role, and does not offer staff a change of their own account', async () => {
    await page.getByLabel('Name or e-mail').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Role', { exact: true }).selectOption(String(Role.Admin));
    const admins = db().select({ email: users.email }).from(users).where(eq(users.role, Role.Admin)).all();
    // Exactly the admins, each shown with the admin role (the list before the filter had others).
    await page.waitForFunction(
      ({ n, role }) => {
        const selects = [...document.querySelectorAll<HTMLSelectElement>('[data-testid="user-row"] select')];
        return selects.length === n && selects.every((select) => select.value === role);
      },
      { n: admins.length, role: String(Role.Admin) },
    );
    const own = page.getByTestId('user-row').filter({ hasText: E2E_ADMIN.email });
    await own.getByText('(you)').waitFor();
    expect(await own.getByRole('combobox').isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Disable' }).isDisabled()).toBe(true);
  });
});

describe('reservations', () => {
  it('lists the squares held now and releases one after a confirm', async () => {
    await open('reservations');
    const active = db()
      .select({ id: reservations.id, cellId: reservations.cellId })
      .from(reservations)
      .where(eq(reservations.state, 'active'))
      .orderBy(asc(reservations.expiresAt), asc(reservations.id))
      .all();
    const rows = page.getByTestId('reservation-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(active.length);

    await rows.first().getByRole('button', { name: 'Release' }).click();
    await rows.first().getByRole('button', { name: 'Yes, release' }).click();
    await noticeSaying(/^The square at row -?\d+, column -?\d+ is released\.$/);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="reservation-row"]').length === n,
      active.length - 1,
    );
    const released = db()
      .select({ state: reservations.state })
      .from(reservations)
      .where(eq(reservations.id, active[0]!.id))
      .get()!;
    expect(released.state).not.toBe('active');
    expect(db().select({ status: cells.status }).from(cells).where(eq(cells.id, active[0]!.cellId)).get()!.status).toBe(
      CellStatus.Available,
    );
  });
});

describe('the staff log', () => {
  it('lists every action taken above, newest first', async () => {
    await open('log');
    await page.getByTestId('log-entry').first().waitFor();
    const actions = await page
      .getByTestId('log-entry')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
    expect(actions.slice(0, 7)).toEqual([
      'release_reservation',
      'enable_user',
      'disable_user',
      'set_role',
      'mark_message_handled',
      'accept_removal',
      'decline_removal',
    ]);
  });

  it('ran without console errors or Content Security Policy violations, and never loaded the tree’s renderer', () => {
    expect(errors).toEqual([]);
    expect(scripts.some((script) => /\/assets\/admin-[\w-]+\.js$/.test(script))).toBe(true);
    expect(scripts.filter((script) => /pixi|tree-canvas|tree-page/.test(script))).toEqual([]);
  });
});
