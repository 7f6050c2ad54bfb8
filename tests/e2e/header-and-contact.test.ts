/**
 * The app shell's header and the contact form in a real browser: the header menu on a phone-sized window, who sees
 * which menu item, and the contact form (its refusals shown, a message sent), with no console errors all along.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { contactMessages, users } from '#drizzle/schema.ts';
import { CONTACT_LIMITS } from '#shared/constants.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { readOutbox } from '#tests/helpers/outbox.ts';
import { CONTACT_COPY } from '#client/pages/copy/contact.ts';
import { E2E_ADMIN } from '../helpers/paths.ts';
import { headerItems, logInAsAdmin, usePublicPages } from '#tests/helpers/browser/public-pages.ts';

const site = usePublicPages();

describe('the header menu on a 360 × 740 phone', () => {
  let page: Page;
  beforeAll(async () => {
    page = await site.openPage({ width: 360, height: 740 });
  });

  it('never scrolls sideways, on any public page', async () => {
    for (const path of [
      '/',
      '/learn',
      '/participate',
      '/faqs',
      '/terms',
      '/privacy',
      '/contact',
      '/forbidden',
      '/nowhere',
    ]) {
      await site.visit(page, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(360);
    }
  });

  it('opens to half the page height, hiding the routed view, and closes on a menu-link click', async () => {
    await site.visit(page, '/');
    const panel = page.locator('[data-testid="menu-panel"]');
    expect(await panel.isVisible()).toBe(false);
    expect(await page.locator('main#main').isVisible()).toBe(true);

    await page.click('.menu-toggle');
    await panel.waitFor({ state: 'visible' });
    expect(await page.getAttribute('.menu-toggle', 'aria-expanded')).toBe('true');
    const box = (await panel.boundingBox())!;
    expect(Math.abs(box.height - 740 / 2)).toBeLessThanOrEqual(2);
    expect(box.width).toBeLessThanOrEqual(360);
    expect(await page.locator('main#main').isVisible()).toBe(false);
    expect(await page.locator('.site-footer').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.click('[data-testid="menu-panel"] [data-menu-item="learn"]');
    await page.waitForURL(`${site.gallery.url}/learn`);
    // The address changes first; the page's own module may still be loading (slow on a busy machine).
    await page.locator('h1', { hasText: /^learn\.$/ }).waitFor();
    expect(await panel.isVisible()).toBe(false);
    expect(await page.locator('main#main').isVisible()).toBe(true);
    expect(await page.textContent('h1')).toBe('learn.');
  });

  it('closes with the toggle and on a window resize', async () => {
    await site.visit(page, '/faqs');
    const panel = page.locator('[data-testid="menu-panel"]');
    await page.click('.menu-toggle');
    await panel.waitFor({ state: 'visible' });
    await page.click('.menu-toggle');
    await panel.waitFor({ state: 'hidden' });

    await page.click('.menu-toggle');
    await panel.waitFor({ state: 'visible' });
    await page.setViewportSize({ width: 420, height: 740 });
    await panel.waitFor({ state: 'hidden' });
    expect(await page.getAttribute('.menu-toggle', 'aria-expanded')).toBe('false');
    expect(await page.locator('main#main').isVisible()).toBe(true);
    await page.setViewportSize({ width: 360, height: 740 });

    // Every resize closes it, a small change of height alone too.
    await page.click('.menu-toggle');
    await panel.waitFor({ state: 'visible' });
    await page.setViewportSize({ width: 360, height: 700 });
    await panel.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 360, height: 740 });
  });
});

describe('who sees which header item', () => {
  it('a guest sees learn, observe, participate, contact, login and register, and no strip', async () => {
    const page = await site.openPage({ width: 360, height: 740 });
    await site.visit(page, '/');
    expect(await headerItems(page)).toEqual(['learn', 'observe', 'participate', 'contact', 'login', 'register']);
    expect(await page.locator('[data-menu-item="logout"]').count()).toBe(0);
    expect(await page.locator('[data-testid="user-strip"]').count()).toBe(0);
  });

  it('the admin sees profile and the dashboard (outside the router), a logout entry and their strip; logging out goes to welcome', async () => {
    const page = await site.openPage({ width: 360, height: 740 });
    await site.visit(page, '/learn');
    expect(await logInAsAdmin(page)).toBe(200);
    await site.visit(page, '/learn');
    const admin = site.gallery.app.deps.db.select().from(users).where(eq(users.email, E2E_ADMIN.email)).get()!;

    // Closed menu: the strip with the picture (or placeholder) and first name, to the profile.
    const strip = page.locator('[data-testid="user-strip"]');
    expect(await strip.isVisible()).toBe(true);
    expect(await strip.getAttribute('href')).toBe('/profile');
    expect((await strip.textContent())!.trim()).toBe(admin.firstname);
    expect(await strip.locator('.avatar').count()).toBe(1);

    expect(await headerItems(page)).toEqual(['learn', 'observe', 'contact', 'profile', 'dashboard']);
    const dashboard = page.locator('[data-testid="menu-panel"] [data-menu-item="dashboard"]');
    expect(await dashboard.getAttribute('href')).toBe('/admin/dashboard');
    // The strip hides while the menu is open.
    expect(await strip.count()).toBe(0);

    await page.click('[data-menu-item="logout"]');
    await page.waitForURL(`${site.gallery.url}/`);
    // Going to welcome closes the menu (the strip is hidden while it is open, so wait for the menu first).
    await page.waitForSelector('.menu-toggle[aria-expanded="false"]');
    await page.locator('[data-testid="user-strip"]').waitFor({ state: 'detached' });
    expect(await headerItems(page)).toEqual(['learn', 'observe', 'participate', 'contact', 'login', 'register']);
  });

  it('a signed-in visitor is not offered participate on welcome or in the footer', async () => {
    const page = await site.openPage();
    await site.visit(page, '/');
    expect(await logInAsAdmin(page)).toBe(200);
    await site.visit(page, '/');
    expect(await page.locator('[data-welcome-link="participate"]').count()).toBe(0);
    expect(await page.locator('[data-footer-item="participate"]').count()).toBe(0);
  });
});

describe('the contact form', () => {
  const rows = () => site.gallery.app.deps.db.select({ n: count() }).from(contactMessages).get()!.n;

  it('checks the fields in the browser, and editing a field clears its error', async () => {
    const page = await site.openPage({ width: 360, height: 740 });
    await site.visit(page, '/contact');
    const before = rows();
    await page.click('form button[type="submit"]');
    expect(await page.textContent('[data-testid="error-email"]')).toBe('Email cannot be blank.');
    expect(await page.textContent('[data-testid="error-reason"]')).toBe('Reason cannot be blank.');
    expect(await page.textContent('[data-testid="error-subject"]')).toBe('Subject cannot be blank.');
    expect(await page.textContent('[data-testid="error-message"]')).toBe('Message cannot be blank.');

    await page.fill('input[name="email"]', 'not-an-address');
    expect(await page.locator('[data-testid="error-email"]').count()).toBe(0);
    expect(await page.locator('[data-testid="error-subject"]').count()).toBe(1);
    await page.click('form button[type="submit"]');
    expect(await page.textContent('[data-testid="error-email"]')).toBe('Invalid email address.');
    expect(rows()).toBe(before);
  });

  it('shows a refusal of the server with its message in the banner and each field error under its field, both at once', async () => {
    // Its errors kept apart, outside the console check below: the browser logs the server's 400 answer.
    const { page, errors } = await site.tab.take();
    await site.visit(page, '/contact');
    const before = rows();
    // Entries the browser's check accepts, changed on the way to a real server into ones it refuses: an address it
    // finds invalid and a message one character over the limit.
    await page.route('**/trpc/misc.contact**', async (route) => {
      const body = JSON.parse(route.request().postData()!) as Record<string, Record<string, string>>;
      for (const input of Object.values(body))
        Object.assign(input, { email: 'two@at@mail.test', message: 'm'.repeat(CONTACT_LIMITS.message + 1) });
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.fill('input[name="email"]', 'visitor@example.test');
    await page.selectOption('select[name="reason"]', 'Question');
    await page.fill('input[name="subject"]', 'Refused on the way');
    await page.fill('textarea[name="message"]', 'This text is replaced before it reaches the server.');
    await page.click('form button[type="submit"]');
    await page.waitForSelector('[data-testid="form-message"]');
    expect(await page.textContent('[data-testid="form-message"]')).toBe('Some fields are not valid.');
    expect(await page.getAttribute('[data-testid="form-message"]', 'role')).toBe('alert');
    expect(await page.textContent('[data-testid="error-email"]')).toBe('Invalid email address.');
    expect(await page.textContent('[data-testid="error-message"]')).toBe(
      `Maximal length is ${CONTACT_LIMITS.message} symbols.`,
    );
    expect(await page.getAttribute('input[name="email"]', 'aria-invalid')).toBe('true');
    expect(await page.locator('[data-testid="error-subject"]').count()).toBe(0);
    expect(rows()).toBe(before);

    // Editing a field clears its own error and the banner; the other field's error stays until it is edited.
    await page.fill('input[name="email"]', 'visitor@example.org');
    expect(await page.locator('[data-testid="error-email"]').count()).toBe(0);
    expect(await page.locator('[data-testid="form-message"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="error-message"]')).toBe(
      `Maximal length is ${CONTACT_LIMITS.message} symbols.`,
    );
    expect(
      errors.filter((line) => !/^Failed to load resource: the server responded with a status of 400\b/.test(line)),
    ).toEqual([]);
  });

  it('sends a message that reaches the help address through the outbox', async () => {
    const page = await site.openPage();
    await site.visit(page, '/contact');
    const subject = `Hello from the browser ${Date.now()}`;
    await page.fill('input[name="email"]', 'visitor@example.test');
    await page.selectOption('select[name="reason"]', 'Feature Request');
    await page.fill('input[name="subject"]', subject);
    await page.fill('textarea[name="message"]', 'Could the tree have a night mode one day?');
    await page.click('form button[type="submit"]');
    await page.waitForSelector('[data-testid="form-message"]');
    expect(await page.textContent('[data-testid="form-message"]')).toBe(CONTACT_COPY.successContact);
    // The form is ready for another message; editing it clears the success banner.
    expect(await page.inputValue('input[name="subject"]')).toBe('');
    await page.fill('input[name="subject"]', 'x');
    expect(await page.locator('[data-testid="form-message"]').count()).toBe(0);

    const stored = site.gallery.app.deps.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.subject, subject))
      .all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ email: 'visitor@example.test', reason: 'Feature Request' });

    await deliverOutbox(site.gallery.app.deps);
    const mails = readOutbox(site.gallery.app.deps.config.outboxDir).filter((mail) => mail.subject.includes(subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(site.gallery.app.deps.config.helpEmail);
    expect(mails[0]!.text).toContain('Reply to: visitor@example.test');
  });
});

describe('all along', () => {
  it('there were no console errors or Content Security Policy violations', () => {
    expect(site.pages.flatMap(({ errors }) => errors)).toEqual([]);
  });
});
