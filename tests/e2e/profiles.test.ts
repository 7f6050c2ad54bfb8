/**
 * Profiles in a real browser (decisions 014, 015): an artist fills the profile form (ZIP lookup, a cropped
 * avatar) and previews the public profile; bad URLs and files are refused, sending nothing. Likes, follows and the tabs
 * are in profile-social-and-tabs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '#drizzle/schema.ts';
import { TIMINGS } from '#shared/constants.ts';
import { errorMessages, messages } from '#client/locale/messages.ts';
import { pixelOf } from '../helpers/browser/profile-fixtures.ts';
import { proxyRefusesAsTooLarge } from '../helpers/browser/proxy.ts';
import {
  artist,
  field,
  FIELDS,
  files,
  gallery,
  open,
  openTab,
  page,
  profilePosts,
  screenshot,
  useProfiles,
} from '#tests/helpers/browser/profiles.ts';

useProfiles();

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

  it('keeps the form and the new picture when a proxy turns the save away as too large (413), and says so', async () => {
    await openTab('profile');
    await page.getByTestId('avatar-edit').click();
    const popup = page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(files.halves);
    await popup.getByTestId('avatar-cropper').waitFor();
    await popup.getByRole('button', { name: 'APPLY', exact: true }).click();
    await popup.waitFor({ state: 'detached' });
    const education = `${FIELDS.education}; printmaking, 2012`;
    await field('Education').fill(education);
    const formMessageIs = (text: string) =>
      page.waitForFunction(
        (expected) => document.querySelector('[data-testid="form-message"]')?.textContent === expected,
        text,
      );

    const openTheWay = await proxyRefusesAsTooLarge(page, /\/api\/user\/[^/]+\/profile$/);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await formMessageIs(errorMessages.payload_too_large);
    // Nothing is lost: the text and the picture wait to be sent again.
    await expect(field('Education').inputValue()).resolves.toBe(education);
    await expect(page.getByTestId('avatar-note').textContent()).resolves.toContain('saved with the profile');
    const saved = () => gallery.app.deps.db.select().from(users).where(eq(users.id, artist.id)).get()!;
    expect(saved().education).toBe(FIELDS.education);

    await openTheWay();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await formMessageIs(messages.profileUpdated);
    expect(saved().education).toBe(education);
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
