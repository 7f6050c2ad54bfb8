/**
 * Profiles in a real browser (issue 9; decisions 014, 015): an artist fills the profile form (ZIP lookup, a cropped
 * avatar) and previews the public profile; bad URLs and files are refused, sending nothing; likes and follows; ATELIER
 * and the tabs by role; a stored non-http URL never becomes a link.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { TIMINGS } from '#shared/constants.ts';
import { messages } from '#client/locale/messages.ts';
import { launchBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import {
  availableSquares,
  followersOf,
  likesOfUser,
  pictureFiles,
  pixelOf,
  reserveSquare,
  seededArtist,
  signUp,
  submitPiece,
  type Member,
} from '../helpers/browser/profile-fixtures.ts';

/** With PROFILE_SHOTS=<folder> set, the test saves screenshots there. */
const SHOTS = process.env.PROFILE_SHOTS ?? null;

let gallery: Gallery;
let browser: Browser;
let artist: Member;
let page: Page;
let files: Awaited<ReturnType<typeof pictureFiles>>;
/** The submitted piece's square and the held square. */
let squares: { submitted: string; held: string };
/** POSTs of the profile form that reached the server. */
let profilePosts: number;

const EXHIBITIONS = Array.from(
  { length: 12 },
  (_, i) => `Group show ${i + 1}, Gallery of the Valley, ${2010 + i}`,
).join('\n');
const FIELDS = {
  description: 'I paint rivers at dusk and the people who walk beside them.',
  exhibitions: EXHIBITIONS,
  education: 'School of Fine Arts, painting, 2008',
  personal: 'www.ada-paints.example',
  fb: 'https://facebook.example/ada',
  tw: 'https://x.example/ada',
  tt: 'https://tiktok.example/@ada',
  in: 'https://instagram.example/ada',
};

const open = (to: string) => page.goto(`${gallery.url}${to}`);
const field = (label: string) => page.getByLabel(label, { exact: true });

async function screenshot(name: string, on: Page = page): Promise<void> {
  if (SHOTS) await on.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function openTab(tab: string): Promise<void> {
  await open(`/profile?tab=${tab}`);
  await page.getByRole('heading', { name: 'manage profile.' }).waitFor();
}

beforeAll(async () => {
  [gallery, browser, files] = await Promise.all([startGallery(), launchBrowser(), pictureFiles()]);
  artist = await signUp(gallery, browser, 'Ada', 'Rivers');
  page = artist.page;
  const [submitted, held] = availableSquares(gallery);
  squares = { submitted, held };
  await submitPiece(page, submitted, 'Blue Hour');
  await reserveSquare(page, held);
  // The held square's draft brings the edit-reserved-cell popup once a session: answered "later" here.
  await page.reload();
  const prompt = page.getByTestId('edit-reserved-cell-popup');
  await prompt.waitFor();
  await prompt.getByRole('button', { name: 'No, later' }).click();
  await prompt.waitFor({ state: 'detached' });
  profilePosts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/user\/[^/]+\/profile$/.test(new URL(request.url()).pathname))
      profilePosts += 1;
  });
});

afterAll(async () => {
  await browser?.close();
  await gallery?.stop();
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
});

describe('the profile form', () => {
  it('shows an artist PROFILE, ACCOUNT, ATELIER and FOLLOWING', async () => {
    await openTab('profile');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Profile', 'Account', 'Atelier', 'Following']);
    await field('Bio').waitFor();
  });

  it('resets the state with the country: AL for the US, empty elsewhere, free text outside the US', async () => {
    expect(await field('Country').inputValue()).toBe('US');
    await field('Country').selectOption('DE');
    expect(await field('State').evaluate((element) => element.tagName)).toBe('INPUT');
    expect(await field('State').inputValue()).toBe('');
    await field('State').fill('Bavaria');
    await field('Country').selectOption('US');
    expect(await field('State').evaluate((element) => element.tagName)).toBe('SELECT');
    expect(await field('State').inputValue()).toBe('AL');
  });

  it('fills the city and the state from a US ZIP, and leaves them alone for an unknown one', async () => {
    const lookup = page.waitForResponse((response) => response.url().includes('misc.zip'));
    await field('Zipcode').fill('10001');
    await lookup;
    await page.waitForFunction(
      () => (document.querySelector<HTMLInputElement>('input[name="city"]')?.value ?? '') === 'New York',
    );
    expect(await field('State').inputValue()).toBe('NY');

    const unknown = page.waitForResponse((response) => response.url().includes('misc.zip'));
    await field('Zipcode').fill('00000');
    await unknown;
    expect(await field('City').inputValue()).toBe('New York');
    expect(await field('State').inputValue()).toBe('NY');
    expect(await page.getByRole('alert').count()).toBe(0);
    await field('Zipcode').fill('10001');
  });

  it('refuses a javascript: personal URL with its message, and sends nothing', async () => {
    await field('Bio').fill(FIELDS.description);
    await field('Personal website').fill('javascript:alert(document.cookie)');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByTestId('error-personal_url').textContent()).resolves.toBe('Format is invalid.');
    expect(await field('Personal website').getAttribute('aria-invalid')).toBe('true');
    expect(profilePosts).toBe(0);
    const stored = gallery.app.deps.db
      .select({ url: users.personalUrl })
      .from(users)
      .where(eq(users.id, artist.id))
      .get()!;
    expect(stored.url).toBe('');
  });

  it('refuses a text file named .png and a file over 8 MB, with their messages', async () => {
    await page.getByTestId('avatar-edit').click();
    const popup = page.getByTestId('avatar-popup');
    await popup.getByRole('heading', { name: 'profile picture.' }).waitFor();
    const apply = popup.getByRole('button', { name: 'APPLY', exact: true });
    // The capitals are in the buttons' text, not only in their style.
    await expect(popup.getByRole('button', { name: 'BROWSE', exact: true }).textContent()).resolves.toBe('BROWSE');
    await expect(apply.textContent()).resolves.toBe('APPLY');

    await popup.getByTestId('avatar-file').setInputFiles(files.textAsPng);
    await expect(popup.getByTestId('avatar-error').textContent()).resolves.toBe(messages.avatarWrongType);
    expect(await apply.isDisabled()).toBe(true);

    await popup.getByTestId('avatar-file').setInputFiles(files.tooLarge);
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="avatar-error"]')?.textContent === text,
      messages.avatarTooLarge,
    );
    expect(await apply.isDisabled()).toBe(true);
    expect(await popup.getByTestId('avatar-cropper').count()).toBe(0);
    await popup.getByRole('button', { name: 'Close' }).click();
    await popup.waitFor({ state: 'detached' });
  });

  it('crops a picture by dragging and zooming, applies it, and saves every field with it', async () => {
    await page.getByTestId('avatar-edit').click();
    const popup = page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(files.halves);
    const cropper = popup.getByTestId('avatar-cropper');
    await cropper.waitFor();
    // Zoom in one step on the slider and back out (the view stays centred), then drag the picture 60 px right:
    // the frame then shows more of the red left half.
    const zoom = popup.getByTestId('avatar-zoom');
    const start = await zoom.inputValue();
    await zoom.fill(String(Number(start) + 100));
    await zoom.fill(start);
    const box = (await cropper.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    await screenshot('avatar-popup');
    await popup.getByRole('button', { name: 'APPLY', exact: true }).click();
    await popup.waitFor({ state: 'detached' });
    await expect(page.getByTestId('avatar-note').textContent()).resolves.toContain('saved with the profile');

    await field('Exhibitions').fill(FIELDS.exhibitions);
    await field('Education').fill(FIELDS.education);
    await field('Personal website').fill(FIELDS.personal);
    await field('Facebook').fill(FIELDS.fb);
    await field('X (Twitter)').fill(FIELDS.tw);
    await field('TikTok').fill(FIELDS.tt);
    await field('Instagram').fill(FIELDS.in);
    await page.getByRole('button', { name: 'Save profile' }).click();
    const message = page.getByTestId('form-message');
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="form-message"]')?.textContent === text,
      messages.profileUpdated,
    );
    expect(profilePosts).toBe(1);
    await screenshot('profile-form');

    const saved = gallery.app.deps.db.select().from(users).where(eq(users.id, artist.id)).get()!;
    // A multipart form carries line breaks as \r\n (HTML's form-data rules); the page shows them as \n.
    expect({ ...saved, exhibitions: saved.exhibitions.replace(/\r\n/g, '\n') }).toMatchObject({
      country: 'US',
      zipcode: '10001',
      city: 'New York',
      state: 'NY',
      description: FIELDS.description,
      exhibitions: FIELDS.exhibitions,
      education: FIELDS.education,
      personalUrl: `https://${FIELDS.personal}`,
      fbUrl: FIELDS.fb,
      twUrl: FIELDS.tw,
      ttUrl: FIELDS.tt,
      inUrl: FIELDS.in,
    });
    expect(saved.image).not.toBeNull();

    // The current user was reloaded: the header strip shows the new picture, 300x300, cropped where it was dragged.
    const headerAvatar = page.locator('header img.user-strip__avatar');
    await headerAvatar.waitFor();
    const src = (await headerAvatar.getAttribute('src'))!;
    const left = await pixelOf(gallery, src, 200, 150);
    expect([left.width, left.height]).toEqual([300, 300]);
    expect(left.rgb[0]).toBeGreaterThan(150);
    expect(left.rgb[2]).toBeLessThan(100);
    const right = await pixelOf(gallery, src, 290, 150);
    expect(right.rgb[2]).toBeGreaterThan(150);
    expect(right.rgb[0]).toBeLessThan(100);

    // The success message goes away on its own (after 4000 ms: shared/constants.ts).
    await message.waitFor({ state: 'detached', timeout: TIMINGS.successMessageMs * 3 });
  });

  it('previews the public profile with every field', async () => {
    await page.getByTestId('preview-profile').click();
    await page.waitForURL((url) => url.pathname === `/profile/${artist.token}`);
    await page.getByTestId('profile-page').waitFor();
    await expect(page.getByTestId('profile-name').textContent()).resolves.toBe('ada rivers');
    await expect(page.getByTestId('profile-address').textContent()).resolves.toBe(
      'New York, 10001, NY, United States of America',
    );
    expect(await page.getByTestId('profile-email').count()).toBe(0);
    await expect(page.getByTestId('profile-url').getByRole('link').getAttribute('href')).resolves.toBe(
      `https://${FIELDS.personal}/`,
    );
    const social = page.getByTestId('profile-social-links').getByRole('link');
    expect(await social.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      FIELDS.fb,
      FIELDS.tw,
      FIELDS.tt,
      FIELDS.in,
    ]);
    const since = (await page.getByTestId('profile-member-since').innerText()).trim();
    expect(since).toMatch(/^MEMBER SINCE [A-Z]+ \d{1,2}, \d{4}$/);
    await expect(page.getByTestId('profile-bio').textContent()).resolves.toContain(FIELDS.description);

    // Long EXHIBITIONS open with read more and close with read less.
    const exhibitions = page.getByTestId('profile-exhibitions-text');
    expect(await exhibitions.textContent()).not.toContain('Group show 12');
    await page.getByTestId('profile-exhibitions-toggle').click();
    await expect(exhibitions.textContent()).resolves.toBe(FIELDS.exhibitions);
    await expect(page.getByTestId('profile-exhibitions-toggle').textContent()).resolves.toBe('read less');
    await page.getByTestId('profile-exhibitions-toggle').click();
    expect(await exhibitions.textContent()).not.toContain('Group show 12');
    await expect(page.getByTestId('profile-education-text').textContent()).resolves.toBe(FIELDS.education);
    expect(await page.getByTestId('profile-education-toggle').count()).toBe(0);

    // The owner gets EDIT and no toggles; the submitted piece is not public yet.
    await expect(page.getByTestId('profile-edit').getAttribute('href')).resolves.toBe('/profile?tab=profile');
    expect(await page.getByTestId('profile-like-toggle').count()).toBe(0);
    expect(await page.getByTestId('profile-follow-toggle').count()).toBe(0);
    await page.getByTestId('profile-art').getByText('No published pieces yet.').waitFor();
    await screenshot('public-profile-own');
  });

  it('shows the e-mail on the public profile once the owner chooses to', async () => {
    await openTab('account');
    await page.getByLabel('Show my e-mail address on my public profile').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="form-message"]')?.textContent === text,
      messages.accountUpdated,
    );
    await open(`/profile/${artist.token}`);
    await expect(page.getByTestId('profile-email').textContent()).resolves.toBe(artist.email);
  });
});

describe('likes and follows', () => {
  it('likes and follows another artist: the counts change and survive a reload; a guest sees counts only', async () => {
    const other = seededArtist(gallery);
    const likesBefore = likesOfUser(gallery, other.token);
    const followersBefore = followersOf(gallery, other.token);
    await open(`/profile/${other.token}`);
    await page.waitForSelector('[data-testid="profile-like-toggle"]:not([disabled])');
    await page.waitForSelector('[data-testid="profile-follow-toggle"]:not([disabled])');
    await expect(page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore));
    await expect(page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followersBefore));

    await page.getByTestId('profile-like-toggle').click();
    await page.waitForSelector('[data-testid="profile-like-toggle"][aria-pressed="true"]:not([disabled])');
    await page.getByTestId('profile-follow-toggle').click();
    await page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    await expect(page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followersBefore + 1));
    expect(likesOfUser(gallery, other.token)).toBe(likesBefore + 1);
    expect(followersOf(gallery, other.token)).toBe(followersBefore + 1);

    await page.reload();
    await page.waitForSelector('[data-testid="profile-like-toggle"][aria-pressed="true"]:not([disabled])');
    await page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    await expect(page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followersBefore + 1));

    // Their ART: cards with a picture linking to the piece, and connection thumbnails linking to their pieces.
    const cards = page.getByTestId('profile-art-card');
    await cards.first().waitFor();
    const hrefs = await page
      .getByTestId('profile-art')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) expect(href).toMatch(/^\/observe\/cell\/[A-Za-z0-9_-]+\/details$/);
    expect(await page.locator('.art-card__connection').count()).toBeGreaterThan(0);
    await screenshot('public-profile-other');

    const guest = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-US' });
    const guestPage = await guest.newPage();
    await guestPage.goto(`${gallery.url}/profile/${other.token}`);
    await guestPage.getByTestId('profile-page').waitFor();
    await expect(guestPage.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    expect(await guestPage.getByTestId('profile-like-toggle').count()).toBe(0);
    expect(await guestPage.getByTestId('profile-follow-toggle').count()).toBe(0);
    expect(
      await guestPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot('public-profile-360', guestPage);
    await guest.close();
  });

  it('lists the followed artist on FOLLOWING, and unfollows from there', async () => {
    const other = seededArtist(gallery);
    const followers = followersOf(gallery, other.token);
    await openTab('following');
    const row = page.getByTestId('following-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await expect(row.getByTestId('following-name').textContent()).resolves.toBe(other.name);
    await expect(row.getByTestId('following-view').getAttribute('href')).resolves.toBe(`/profile/${other.token}`);
    await screenshot('following');
    await row.getByTestId('following-remove').click();
    await page.getByTestId('following-empty').waitFor();
    expect(followersOf(gallery, other.token)).toBe(followers - 1);

    await open(`/profile/${other.token}`);
    await page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="false"]:not([disabled])');
    await expect(page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followers - 1));
  });
});

describe('the atelier and the tabs by role', () => {
  it('lists the held square and the submitted piece, newest first, with their actions', async () => {
    await openTab('atelier');
    const rows = page.getByTestId('atelier-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const [held, submitted] = [rows.nth(0), rows.nth(1)];
    await expect(held.getByTestId('atelier-status').textContent()).resolves.toMatch(/^Reserved until /);
    await expect(held.getByTestId('atelier-upload').getAttribute('href')).resolves.toBe(
      `/observe/cell/${squares.held}/edit`,
    );
    expect(await held.getByTestId('atelier-details').count()).toBe(0);
    await expect(submitted.getByTestId('atelier-title').textContent()).resolves.toBe('Blue Hour');
    await expect(submitted.getByTestId('atelier-status').textContent()).resolves.toBe('Waiting for review');
    await expect(submitted.getByTestId('atelier-details').getAttribute('href')).resolves.toBe(
      `/observe/cell/${squares.submitted}/details`,
    );
    await expect(submitted.getByTestId('atelier-tree').getAttribute('href')).resolves.toBe(
      `/observe?cell=${squares.submitted}`,
    );
    expect(await submitted.getByTestId('atelier-upload').count()).toBe(0);
    await expect(submitted.textContent()).resolves.toContain('24 x 18 x .01 in');
    await screenshot('atelier');
    expect(artist.errors).toEqual([]);
  });

  it('keeps a piece whose changes window lapsed, without links to the square it left', async () => {
    const { db } = gallery.app.deps;
    const cell = db.select().from(cells).where(eq(cells.token, squares.submitted)).get()!;
    const piece = db.select().from(art).where(eq(art.id, cell.artId!)).get()!;
    // What the reservation timers leave when requested changes were never made (decision 019).
    db.update(art)
      .set({ status: ArtStatus.Removed, reviewNote: 'Please crop the frame.' })
      .where(eq(art.id, piece.id))
      .run();
    try {
      await openTab('atelier');
      const kept = page.getByTestId('atelier-row').filter({ hasText: 'Blue Hour' });
      await kept.getByTestId('atelier-kept').waitFor();
      await expect(kept.getByTestId('atelier-status').textContent()).resolves.toBe('Removed');
      expect(await kept.getByTestId('atelier-details').count()).toBe(0);
      expect(await kept.getByTestId('atelier-tree').count()).toBe(0);
    } finally {
      db.update(art).set({ status: piece.status, reviewNote: piece.reviewNote }).where(eq(art.id, piece.id)).run();
    }
  });

  it('fits a phone-sized window: the atelier, the profile form and the avatar popup', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await openTab('atelier');
    await page.getByTestId('atelier-row').first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot('atelier-360');
    await openTab('profile');
    await field('Bio').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId('avatar-edit').click();
    const popup = page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(files.halves);
    const cropper = (await popup.getByTestId('avatar-cropper').boundingBox())!;
    const dialog = (await popup.boundingBox())!;
    expect(cropper.x).toBeGreaterThanOrEqual(dialog.x);
    expect(cropper.x + cropper.width).toBeLessThanOrEqual(dialog.x + dialog.width);
    await screenshot('avatar-popup-360');
    await popup.getByRole('button', { name: 'Close' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(artist.errors).toEqual([]);
  });

  it('gives an observer ACCOUNT and FOLLOWING only', async () => {
    const observer = await signUp(gallery, browser, 'Olive', 'Watcher');
    await observer.page.goto(`${gallery.url}/profile`);
    await observer.page.getByRole('heading', { name: 'manage profile.' }).waitFor();
    expect(await observer.page.getByRole('tab').allTextContents()).toEqual(['Account', 'Following']);
    await observer.page.goto(`${gallery.url}/profile?tab=following`);
    await observer.page.getByTestId('following-empty').waitFor();
    expect(observer.errors).toEqual([]);
    await observer.context.close();
  });

  it('never renders a stored non-http URL as a link', async () => {
    // As if an older server had let them through.
    gallery.app.deps.db
      .update(users)
      .set({
        personalUrl: 'javascript:alert(1)',
        fbUrl: 'data:text/html,hi',
        twUrl: 'https://x.example/ada',
        ttUrl: '',
        inUrl: 'vbscript:x',
      })
      .where(eq(users.id, artist.id))
      .run();
    await open(`/profile/${artist.token}`);
    const url = page.getByTestId('profile-url');
    await expect(url.textContent()).resolves.toBe('javascript:alert(1)');
    expect(await url.getByRole('link').count()).toBe(0);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    expect(hrefs.filter((href) => !/^(https?:|\/|#|mailto:)/.test(href))).toEqual([]);
    expect(await page.getByTestId('profile-social-links').getByRole('link').count()).toBe(1);
  });
});
