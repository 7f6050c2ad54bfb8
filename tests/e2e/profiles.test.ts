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
import { FIELDS, useProfiles } from '#tests/helpers/browser/profiles.ts';

const site = useProfiles();

describe('the profile form', () => {
  it('shows an artist PROFILE, ACCOUNT, ATELIER and FOLLOWING', async () => {
    await site.openTab('profile');
    expect(await site.page.getByRole('tab').allTextContents()).toEqual(['Profile', 'Account', 'Atelier', 'Following']);
    await site.field('Bio').waitFor();
  });

  it('resets the state with the country: AL for the US, empty elsewhere, free text outside the US', async () => {
    expect(await site.field('Country').inputValue()).toBe('US');
    await site.field('Country').selectOption('DE');
    expect(await site.field('State').evaluate((element) => element.tagName)).toBe('INPUT');
    expect(await site.field('State').inputValue()).toBe('');
    await site.field('State').fill('Bavaria');
    await site.field('Country').selectOption('US');
    expect(await site.field('State').evaluate((element) => element.tagName)).toBe('SELECT');
    expect(await site.field('State').inputValue()).toBe('AL');
  });

  it('fills the city and the state from a US ZIP, and leaves them alone for an unknown one', async () => {
    const lookup = site.page.waitForResponse((response) => response.url().includes('misc.zip'));
    await site.field('Zipcode').fill('10001');
    await lookup;
    await site.page.waitForFunction(
      () => (document.querySelector<HTMLInputElement>('input[name="city"]')?.value ?? '') === 'New York',
    );
    expect(await site.field('State').inputValue()).toBe('NY');

    const unknown = site.page.waitForResponse((response) => response.url().includes('misc.zip'));
    await site.field('Zipcode').fill('00000');
    await unknown;
    expect(await site.field('City').inputValue()).toBe('New York');
    expect(await site.field('State').inputValue()).toBe('NY');
    expect(await site.page.getByRole('alert').count()).toBe(0);
    await site.field('Zipcode').fill('10001');
  });

  it('refuses a javascript: personal URL with its message, and sends nothing', async () => {
    await site.field('Bio').fill(FIELDS.description);
    await site.field('Personal website').fill('javascript:alert(document.cookie)');
    await site.page.getByRole('button', { name: 'Save profile' }).click();
    await expect(site.page.getByTestId('error-personal_url').textContent()).resolves.toBe('Format is invalid.');
    expect(await site.field('Personal website').getAttribute('aria-invalid')).toBe('true');
    expect(site.profilePosts).toBe(0);
    const stored = site.gallery.app.deps.db
      .select({ url: users.personalUrl })
      .from(users)
      .where(eq(users.id, site.artist.id))
      .get()!;
    expect(stored.url).toBe('');
  });

  it('refuses a text file named .png and a file over 8 MB, with their messages', async () => {
    await site.page.getByTestId('avatar-edit').click();
    const popup = site.page.getByTestId('avatar-popup');
    await popup.getByRole('heading', { name: 'profile picture.' }).waitFor();
    const apply = popup.getByRole('button', { name: 'APPLY', exact: true });
    // The capitals are in the buttons' text, not only in their style.
    await expect(popup.getByRole('button', { name: 'BROWSE', exact: true }).textContent()).resolves.toBe('BROWSE');
    await expect(apply.textContent()).resolves.toBe('APPLY');

    await popup.getByTestId('avatar-file').setInputFiles(site.files.textAsPng);
    await expect(popup.getByTestId('avatar-error').textContent()).resolves.toBe(messages.avatarWrongType);
    expect(await apply.isDisabled()).toBe(true);

    await popup.getByTestId('avatar-file').setInputFiles(site.files.tooLarge);
    await site.page.waitForFunction(
      (text) => document.querySelector('[data-testid="avatar-error"]')?.textContent === text,
      messages.avatarTooLarge,
    );
    expect(await apply.isDisabled()).toBe(true);
    expect(await popup.getByTestId('avatar-cropper').count()).toBe(0);
    await popup.getByRole('button', { name: 'Close' }).click();
    await popup.waitFor({ state: 'detached' });
  });

  it('crops a picture by dragging and zooming, applies it, and saves every field with it', async () => {
    await site.page.getByTestId('avatar-edit').click();
    const popup = site.page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(site.files.halves);
    const cropper = popup.getByTestId('avatar-cropper');
    await cropper.waitFor();
    // Zoom in one step on the slider and back out (the view stays centred), then drag the picture 60 px right:
    // the frame then shows more of the red left half.
    const zoom = popup.getByTestId('avatar-zoom');
    const start = await zoom.inputValue();
    await zoom.fill(String(Number(start) + 100));
    await zoom.fill(start);
    const box = (await cropper.boundingBox())!;
    await site.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await site.page.mouse.down();
    await site.page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2, { steps: 3 });
    await site.page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 3 });
    await site.page.mouse.up();
    await site.screenshot('avatar-popup');
    await popup.getByRole('button', { name: 'APPLY', exact: true }).click();
    await popup.waitFor({ state: 'detached' });
    await expect(site.page.getByTestId('avatar-note').textContent()).resolves.toContain('saved with the profile');

    await site.field('Exhibitions').fill(FIELDS.exhibitions);
    await site.field('Education').fill(FIELDS.education);
    await site.field('Personal website').fill(FIELDS.personal);
    await site.field('Facebook').fill(FIELDS.fb);
    await site.field('X (Twitter)').fill(FIELDS.tw);
    await site.field('TikTok').fill(FIELDS.tt);
    await site.field('Instagram').fill(FIELDS.in);
    await site.page.getByRole('button', { name: 'Save profile' }).click();
    const message = site.page.getByTestId('form-message');
    await site.page.waitForFunction(
      (text) => document.querySelector('[data-testid="form-message"]')?.textContent === text,
      messages.profileUpdated,
    );
    expect(site.profilePosts).toBe(1);
    await site.screenshot('profile-form');

    const saved = site.gallery.app.deps.db.select().from(users).where(eq(users.id, site.artist.id)).get()!;
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
    const headerAvatar = site.page.locator('header img.user-strip__avatar');
    await headerAvatar.waitFor();
    const src = (await headerAvatar.getAttribute('src'))!;
    const left = await pixelOf(site.gallery, src, 200, 150);
    expect([left.width, left.height]).toEqual([300, 300]);
    expect(left.rgb[0]).toBeGreaterThan(150);
    expect(left.rgb[2]).toBeLessThan(100);
    const right = await pixelOf(site.gallery, src, 290, 150);
    expect(right.rgb[2]).toBeGreaterThan(150);
    expect(right.rgb[0]).toBeLessThan(100);

    // The success message goes away on its own (after 4000 ms: shared/constants.ts).
    await message.waitFor({ state: 'detached', timeout: TIMINGS.successMessageMs * 3 });
  });

  it('previews the public profile with every field', async () => {
    await site.page.getByTestId('preview-profile').click();
    await site.page.waitForURL((url) => url.pathname === `/profile/${site.artist.token}`);
    await site.page.getByTestId('profile-page').waitFor();
    await expect(site.page.getByTestId('profile-name').textContent()).resolves.toBe('ada rivers');
    await expect(site.page.getByTestId('profile-address').textContent()).resolves.toBe(
      'New York, 10001, NY, United States of America',
    );
    expect(await site.page.getByTestId('profile-email').count()).toBe(0);
    await expect(site.page.getByTestId('profile-url').getByRole('link').getAttribute('href')).resolves.toBe(
      `https://${FIELDS.personal}/`,
    );
    const social = site.page.getByTestId('profile-social-links').getByRole('link');
    expect(await social.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      FIELDS.fb,
      FIELDS.tw,
      FIELDS.tt,
      FIELDS.in,
    ]);
    const since = (await site.page.getByTestId('profile-member-since').innerText()).trim();
    expect(since).toMatch(/^MEMBER SINCE [A-Z]+ \d{1,2}, \d{4}$/);
    await expect(site.page.getByTestId('profile-bio').textContent()).resolves.toContain(FIELDS.description);

    // Long EXHIBITIONS open with read more and close with read less.
    const exhibitions = site.page.getByTestId('profile-exhibitions-text');
    expect(await exhibitions.textContent()).not.toContain('Group show 12');
    await site.page.getByTestId('profile-exhibitions-toggle').click();
    await expect(exhibitions.textContent()).resolves.toBe(FIELDS.exhibitions);
    await expect(site.page.getByTestId('profile-exhibitions-toggle').textContent()).resolves.toBe('read less');
    await site.page.getByTestId('profile-exhibitions-toggle').click();
    expect(await exhibitions.textContent()).not.toContain('Group show 12');
    await expect(site.page.getByTestId('profile-education-text').textContent()).resolves.toBe(FIELDS.education);
    expect(await site.page.getByTestId('profile-education-toggle').count()).toBe(0);

    // The owner gets EDIT and no toggles; the submitted piece is not public yet.
    await expect(site.page.getByTestId('profile-edit').getAttribute('href')).resolves.toBe('/profile?tab=profile');
    expect(await site.page.getByTestId('profile-like-toggle').count()).toBe(0);
    expect(await site.page.getByTestId('profile-follow-toggle').count()).toBe(0);
    await site.page.getByTestId('profile-art').getByText('No published pieces yet.').waitFor();
    await site.screenshot('public-profile-own');
  });

  it('keeps the form and the new picture when a proxy turns the save away as too large (413), and says so', async () => {
    await site.openTab('profile');
    await site.page.getByTestId('avatar-edit').click();
    const popup = site.page.getByTestId('avatar-popup');
    await popup.getByTestId('avatar-file').setInputFiles(site.files.halves);
    await popup.getByTestId('avatar-cropper').waitFor();
    await popup.getByRole('button', { name: 'APPLY', exact: true }).click();
    await popup.waitFor({ state: 'detached' });
    const education = `${FIELDS.education}; printmaking, 2012`;
    await site.field('Education').fill(education);
    const formMessageIs = (text: string) =>
      site.page.waitForFunction(
        (expected) => document.querySelector('[data-testid="form-message"]')?.textContent === expected,
        text,
      );

    const openTheWay = await proxyRefusesAsTooLarge(site.page, /\/api\/user\/[^/]+\/profile$/);
    await site.page.getByRole('button', { name: 'Save profile' }).click();
    await formMessageIs(errorMessages.payload_too_large);
    // Nothing is lost: the text and the picture wait to be sent again.
    await expect(site.field('Education').inputValue()).resolves.toBe(education);
    await expect(site.page.getByTestId('avatar-note').textContent()).resolves.toContain('saved with the profile');
    const saved = () => site.gallery.app.deps.db.select().from(users).where(eq(users.id, site.artist.id)).get()!;
    expect(saved().education).toBe(FIELDS.education);

    await openTheWay();
    await site.page.getByRole('button', { name: 'Save profile' }).click();
    await formMessageIs(messages.profileUpdated);
    expect(saved().education).toBe(education);
  });

  it('shows the e-mail on the public profile once the owner chooses to', async () => {
    await site.openTab('account');
    await site.page.getByLabel('Show my e-mail address on my public profile').check();
    await site.page.getByRole('button', { name: 'Save changes' }).click();
    await site.page.waitForFunction(
      (text) => document.querySelector('[data-testid="form-message"]')?.textContent === text,
      messages.accountUpdated,
    );
    await site.open(`/profile/${site.artist.token}`);
    await expect(site.page.getByTestId('profile-email').textContent()).resolves.toBe(site.artist.email);
  });
});
