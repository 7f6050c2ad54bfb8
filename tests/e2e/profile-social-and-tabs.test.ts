/**
 * Profiles in a real browser (decisions 014, 015): likes and follows, ATELIER and the tabs by role, and a
 * stored non-http URL that never becomes a link.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { followersOf, likesOfUser, seededArtist, signUp } from '../helpers/browser/profile-fixtures.ts';
import { useProfiles } from '#tests/helpers/browser/profiles.ts';

const site = useProfiles();

describe('likes and follows', () => {
  it('likes and follows another artist: the counts change and survive a reload; a guest sees counts only', async () => {
    const other = seededArtist(site.gallery);
    const likesBefore = likesOfUser(site.gallery, other.token);
    const followersBefore = followersOf(site.gallery, other.token);
    await site.open(`/profile/${other.token}`);
    await site.page.waitForSelector('[data-testid="profile-like-toggle"]:not([disabled])');
    await site.page.waitForSelector('[data-testid="profile-follow-toggle"]:not([disabled])');
    await expect(site.page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore));
    await expect(site.page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followersBefore));

    await site.page.getByTestId('profile-like-toggle').click();
    await site.page.waitForSelector('[data-testid="profile-like-toggle"][aria-pressed="true"]:not([disabled])');
    await site.page.getByTestId('profile-follow-toggle').click();
    await site.page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(site.page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    await expect(site.page.getByTestId('profile-followers-count').textContent()).resolves.toBe(
      String(followersBefore + 1),
    );
    expect(likesOfUser(site.gallery, other.token)).toBe(likesBefore + 1);
    expect(followersOf(site.gallery, other.token)).toBe(followersBefore + 1);

    await site.page.reload();
    await site.page.waitForSelector('[data-testid="profile-like-toggle"][aria-pressed="true"]:not([disabled])');
    await site.page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="true"]:not([disabled])');
    await expect(site.page.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    await expect(site.page.getByTestId('profile-followers-count').textContent()).resolves.toBe(
      String(followersBefore + 1),
    );

    // Their ART: cards with a picture linking to the piece, and connection thumbnails linking to their pieces.
    const cards = site.page.getByTestId('profile-art-card');
    await cards.first().waitFor();
    const hrefs = await site.page
      .getByTestId('profile-art')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) expect(href).toMatch(/^\/observe\/cell\/[A-Za-z0-9_-]+\/details$/);
    expect(await site.page.locator('.art-card__connection').count()).toBeGreaterThan(0);
    await site.screenshot('public-profile-other');

    const { page: guestPage } = await site.tab.take({ viewport: { width: 360, height: 740 } });
    await guestPage.goto(`${site.gallery.url}/profile/${other.token}`);
    await guestPage.getByTestId('profile-page').waitFor();
    await expect(guestPage.getByTestId('profile-likes-count').textContent()).resolves.toBe(String(likesBefore + 1));
    expect(await guestPage.getByTestId('profile-like-toggle').count()).toBe(0);
    expect(await guestPage.getByTestId('profile-follow-toggle').count()).toBe(0);
    expect(
      await guestPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await site.screenshot('public-profile-360', guestPage);
  });

  it('lists the followed artist on FOLLOWING, and unfollows from there', async () => {
    const other = seededArtist(site.gallery);
    const followers = followersOf(site.gallery, other.token);
    await site.openTab('following');
    const row = site.page.getByTestId('following-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await expect(row.getByTestId('following-name').textContent()).resolves.toBe(other.name);
    await expect(row.getByTestId('following-view').getAttribute('href')).resolves.toBe(`/profile/${other.token}`);
    await site.screenshot('following');
    await row.getByTestId('following-remove').click();
    await site.page.getByTestId('following-empty').waitFor();
    expect(followersOf(site.gallery, other.token)).toBe(followers - 1);

    await site.open(`/profile/${other.token}`);
    await site.page.waitForSelector('[data-testid="profile-follow-toggle"][aria-pressed="false"]:not([disabled])');
    await expect(site.page.getByTestId('profile-followers-count').textContent()).resolves.toBe(String(followers - 1));
  });
});

describe('the atelier and the tabs by role', () => {
  it('lists the held square and the submitted piece, newest first, with their actions', async () => {
    await site.openTab('atelier');
    const rows = site.page.getByTestId('atelier-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const [held, submitted] = [rows.nth(0), rows.nth(1)];
    await expect(held.getByTestId('atelier-status').textContent()).resolves.toMatch(/^Reserved until /);
    await expect(held.getByTestId('atelier-upload').getAttribute('href')).resolves.toBe(
      `/observe/cell/${site.squares.held}/edit`,
    );
    expect(await held.getByTestId('atelier-details').count()).toBe(0);
    await expect(submitted.getByTestId('atelier-title').textContent()).resolves.toBe('Blue Hour');
    await expect(submitted.getByTestId('atelier-status').textContent()).resolves.toBe('Waiting for review');
    await expect(submitted.getByTestId('atelier-details').getAttribute('href')).resolves.toBe(
      `/observe/cell/${site.squares.submitted}/details`,
    );
    await expect(submitted.getByTestId('atelier-tree').getAttribute('href')).resolves.toBe(
      `/observe?cell=${site.squares.submitted}`,
    );
    expect(await submitted.getByTestId('atelier-upload').count()).toBe(0);
    await expect(submitted.textContent()).resolves.toContain('24 x 18 x .01 in');
    await site.screenshot('atelier');
    expect(site.artist.errors).toEqual([]);
  });

  it('keeps a piece whose changes window lapsed, without links to the square it left', async () => {
    const { db } = site.gallery.app.deps;
    const cell = db.select().from(cells).where(eq(cells.token, site.squares.submitted)).get()!;
    const piece = db.select().from(art).where(eq(art.id, cell.artId!)).get()!;
    // What the reservation timers leave when requested changes were never made (decision 019).
    db.update(art)
      .set({ status: ArtStatus.Removed, reviewNote: 'Please crop the frame.' })
      .where(eq(art.id, piece.id))
      .run();
    try {
      await site.openTab('atelier');
      const kept = site.page.getByTestId('atelier-row').filter({ hasText: 'Blue Hour' });
      await kept.getByTestId('atelier-kept').waitFor();
      await expect(kept.getByTestId('atelier-status').textContent()).resolves.toBe('Removed');
      expect(await kept.getByTestId('atelier-details').count()).toBe(0);
      expect(await kept.getByTestId('atelier-tree').count()).toBe(0);
    } finally {
      db.update(art).set({ status: piece.status, reviewNote: piece.reviewNote }).where(eq(art.id, piece.id)).run();
    }
  });

  it('fits a phone-sized window: every tab whole, the atelier, the profile form and the avatar popup', async () => {
    await site.page.setViewportSize({ width: 360, height: 740 });
    const overflow = () =>
      site.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await site.openTab('atelier');
    await site.page.getByTestId('atelier-row').first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Every tab shows whole: none cut off at the edge, none hidden in a strip that scrolls without a cue.
    const tabs = await site.page.getByRole('tab').evaluateAll((all) =>
      all.map((tab) => {
        const box = tab.getBoundingClientRect();
        return { name: tab.textContent, whole: box.left >= 0 && box.right <= window.innerWidth };
      }),
    );
    expect(tabs).toEqual(['Profile', 'Account', 'Atelier', 'Following'].map((name) => ({ name, whole: true })));
    expect(await site.page.getByRole('tablist').evaluate((list) => list.scrollWidth - list.clientWidth)).toBe(0);
    await site.screenshot('atelier-360');
    await site.openTab('profile');
    await site.field('Bio').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await site.page.getByTestId('avatar-edit').click();
    const popup = site.page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(site.files.halves);
    const cropper = (await popup.getByTestId('avatar-cropper').boundingBox())!;
    const dialog = (await popup.boundingBox())!;
    expect(cropper.x).toBeGreaterThanOrEqual(dialog.x);
    expect(cropper.x + cropper.width).toBeLessThanOrEqual(dialog.x + dialog.width);
    await site.screenshot('avatar-popup-360');
    await popup.getByRole('button', { name: 'Close' }).click();
    await site.page.setViewportSize({ width: 1280, height: 800 });
    expect(site.artist.errors).toEqual([]);
  });

  it('gives an observer ACCOUNT and FOLLOWING only', async () => {
    const observer = await signUp(site.gallery, site.tab, 'Olive', 'Watcher');
    await observer.page.goto(`${site.gallery.url}/profile`);
    await observer.page.getByRole('heading', { name: 'manage profile.' }).waitFor();
    expect(await observer.page.getByRole('tab').allTextContents()).toEqual(['Account', 'Following']);
    await observer.page.goto(`${site.gallery.url}/profile?tab=following`);
    await observer.page.getByTestId('following-empty').waitFor();
    expect(observer.errors).toEqual([]);
  });

  it('never renders a stored non-http URL as a link', async () => {
    // As if an older server had let them through.
    site.gallery.app.deps.db
      .update(users)
      .set({
        personalUrl: 'javascript:alert(1)',
        fbUrl: 'data:text/html,hi',
        twUrl: 'https://x.example/ada',
        ttUrl: '',
        inUrl: 'vbscript:x',
      })
      .where(eq(users.id, site.artist.id))
      .run();
    await site.open(`/profile/${site.artist.token}`);
    const url = site.page.getByTestId('profile-url');
    await expect(url.textContent()).resolves.toBe('javascript:alert(1)');
    expect(await url.getByRole('link').count()).toBe(0);
    const hrefs = await site.page
      .locator('a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    expect(hrefs.filter((href) => !/^(https?:|\/|#|mailto:)/.test(href))).toEqual([]);
    expect(await site.page.getByTestId('profile-social-links').getByRole('link').count()).toBe(1);
  });
});
