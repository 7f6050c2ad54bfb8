/**
 * The public pages and the app shell in a real browser: the preloader, every public page, the header menu on a
 * phone-sized window, who sees which menu item, and the contact form (its refusals shown, a message sent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { contactMessages, users } from '#drizzle/schema.ts';
import { CONTACT_LIMITS } from '#shared/constants.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { readOutbox } from '#tests/helpers/outbox.ts';
import { CONTACT_COPY } from '#client/pages/copy/contact.ts';
import { FAQS } from '#client/pages/copy/faqs.ts';
import { THE_GROUND } from '#client/pages/copy/principles.ts';
import { launchBrowser, postFromPage, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';

/** A phone number set by the operator (CONTACT_PHONE): shown on the contact page and in the footer. */
const PHONE = '+1 (555) 010-0199';
import { E2E_ADMIN } from '../helpers/paths.ts';

let gallery: Gallery;
let browser: Browser;
const pages: { page: Page; errors: string[] }[] = [];

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery({ contactPhone: PHONE }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await gallery?.stop();
});

async function openPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  pages.push({ page, errors: watchErrors(page) });
  return page;
}

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(`${gallery.url}${path}`);
  await page.waitForSelector('.site-header');
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
}

/** The menu items the header offers, in order, after opening the menu. */
async function headerItems(page: Page): Promise<string[]> {
  if ((await page.getAttribute('.menu-toggle', 'aria-expanded')) !== 'true') await page.click('.menu-toggle');
  await page.waitForSelector('[data-testid="menu-panel"]', { state: 'visible' });
  return page.$$eval('[data-testid="menu-panel"] nav [data-menu-item]', (links) =>
    links.map((link) => link.getAttribute('data-menu-item')!),
  );
}

function logInAsAdmin(page: Page): Promise<number> {
  return postFromPage(page, '/api/auth/login', { username: E2E_ADMIN.email, password: E2E_ADMIN.password });
}

// Browsers driven by Playwright skip the preloader (navigator.webdriver); these tests force it with `?preload`.
describe('the preloader', () => {
  it('plays our logo animation once, signals its end, and goes away when the page is ready', async () => {
    const page = await openPage();
    const started = Date.now();
    await page.goto(`${gallery.url}/?preload`);
    const preloader = page.locator('.preloader');
    await preloader.waitFor({ state: 'visible' });
    expect(await preloader.getAttribute('data-animation')).toBe('playing');
    expect(await page.locator('.preloader .logo-mark__square').count()).toBe(14);
    // No loop: every animation in it has an iteration count of one.
    const iterations = await page.$$eval('.preloader *', (elements) => [
      ...new Set(elements.map((element) => getComputedStyle(element).animationIterationCount)),
    ]);
    expect(iterations).toEqual(['1']);

    // The end of the animation is signalled (animationend), not guessed from a timer.
    await page.waitForSelector('.preloader[data-animation="done"]', { timeout: 30_000 });
    await preloader.waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - started).toBeGreaterThan(6_000);
    expect(await page.evaluate(() => document.documentElement.dataset.preloader)).toBe('done');
    await expect(page.locator('h1').textContent()).resolves.toContain('welcome');
  });

  it('can be skipped with a key press', async () => {
    const page = await openPage();
    await page.goto(`${gallery.url}/learn?preload`);
    await page.locator('.preloader').waitFor({ state: 'visible' });
    const started = Date.now();
    await page.keyboard.press('Space');
    await page.locator('.preloader').waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await page.title()).toBe('learn. · Gallery Tree');
  });

  it('is skipped for automated browsers and with ?nopreload', async () => {
    const page = await openPage();
    await visit(page, '/');
    expect(await page.evaluate(() => document.documentElement.dataset.preloader)).toBe('skipped');
    expect(await page.locator('.preloader').count()).toBe(0);
    await visit(page, '/faqs?nopreload');
    expect(await page.locator('.preloader').count()).toBe(0);
  });
});

describe('the public pages', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage();
  });

  it('welcome: the introduction and the ways in, participate included for a guest', async () => {
    await visit(page, '/');
    expect(await page.title()).toBe('Gallery Tree');
    expect(await page.locator('h1').textContent()).toBe('welcome.');
    expect(
      await page.$$eval('[data-welcome-link]', (links) =>
        links.map((l) => [l.getAttribute('data-welcome-link'), l.getAttribute('href')]),
      ),
    ).toEqual([
      ['observe', '/observe'],
      ['learn', '/learn'],
      ['participate', '/participate'],
    ]);
  });

  it('learn: four slides with tabs; previous is hidden on the first, next on the last', async () => {
    await visit(page, '/learn');
    expect(await page.title()).toBe('learn. · Gallery Tree');
    expect(await page.locator('[role="tab"]').allTextContents()).toEqual([
      '01OVERVIEW',
      '02METAPHOR',
      '03CONNECTION',
      '04INTERACTION',
    ]);
    const slide = () => page.getAttribute('[role="tabpanel"]', 'data-slide');
    expect(await slide()).toBe('overview');
    expect(await page.locator('[data-testid="learn-previous"]').count()).toBe(0);
    await expect(page.locator('[data-testid="learn-next"]').isVisible()).resolves.toBe(true);

    for (const expected of ['metaphor', 'connection', 'interaction']) {
      await page.click('[data-testid="learn-next"]');
      expect(await slide()).toBe(expected);
      expect(await page.locator('[data-testid="learn-previous"]').isVisible()).toBe(true);
    }
    expect(await page.locator('[data-testid="learn-next"]').count()).toBe(0);
    expect(await page.getAttribute('[role="tab"][aria-selected="true"]', 'id')).toContain('interaction');

    await page.click('[data-testid="learn-previous"]');
    expect(await slide()).toBe('connection');
    await page.click('[role="tab"]:has-text("OVERVIEW")');
    expect(await slide()).toBe('overview');
    expect(await page.locator('[data-testid="learn-previous"]').count()).toBe(0);
  });

  it('participate: the five steps, the principles popup, and the way to registration', async () => {
    await visit(page, '/participate');
    expect(await page.title()).toBe('participate. · Gallery Tree');
    expect(await page.locator('.step__title').allTextContents()).toEqual([
      'register.',
      'observe the tree.',
      'reserve for 2 weeks.',
      'upload when ready.',
      'build a profile.',
    ]);
    const profileStep = await page.locator('[data-testid="participate-step"]').nth(4).textContent();
    for (const part of ['bio', 'exhibits', 'education', 'social links', 'website']) expect(profileStep).toContain(part);

    const dialog = page.locator('[data-testid="principles-dialog"]');
    expect(await dialog.isVisible()).toBe(false);
    await page.click('[data-testid="open-principles"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('.principle__name').allTextContents()).toEqual([
      'honesty',
      'connectivity',
      'decency',
      'community',
    ]);
    expect(await dialog.textContent()).toContain('AI use must be disclosed');
    await dialog.locator('.dialog__close').click();
    await dialog.waitFor({ state: 'hidden' });
    // Escape closes it too.
    await page.click('[data-testid="open-principles"]');
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    expect(await page.getAttribute('.participate__actions a', 'href')).toBe('/registration');
    expect(THE_GROUND).toHaveLength(4);
  });

  it('faqs: eleven questions; choosing one shows its answer and hides the last', async () => {
    await visit(page, '/faqs');
    expect(await page.title()).toBe('faqs. · Gallery Tree');
    const faqs = page.locator('[data-testid="faq"]');
    expect(await faqs.count()).toBe(11);
    expect(await page.locator('.faq__text').allTextContents()).toEqual(FAQS.map((faq) => faq.question));
    expect(await faqs.nth(0).locator('.faq__answer').isVisible()).toBe(true);
    await faqs.nth(4).locator('button').click();
    expect(await faqs.nth(4).locator('.faq__answer').isVisible()).toBe(true);
    expect(await faqs.nth(4).locator('.faq__answer').textContent()).toContain('Not yet');
    expect(await faqs.nth(0).locator('.faq__answer').isVisible()).toBe(false);
    expect(await faqs.nth(4).locator('button').getAttribute('aria-expanded')).toBe('true');
    expect(await page.getAttribute('[data-side-nav="faqs"]', 'aria-current')).toBe('page');
  });

  it('terms: 25 numbered sections dated December 29, 2023, a mailto link to the help address and a link to privacy', async () => {
    await visit(page, '/terms');
    expect(await page.title()).toBe('terms. · Gallery Tree');
    const sections = page.locator('[data-testid="legal-section"]');
    expect(await sections.count()).toBe(25);
    expect(await sections.nth(24).locator('h2').textContent()).toMatch(/^25\. /);
    expect(await page.getAttribute('.static-page__updated time', 'datetime')).toBe('2023-12-29');
    expect(await page.textContent('.static-page__updated')).toContain('December 29, 2023');
    const helpEmail = gallery.app.deps.config.helpEmail;
    expect(await page.locator(`a[href="mailto:${helpEmail}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator('.static-page__body a[href="/privacy"]').count()).toBeGreaterThan(0);
    const text = (await page.textContent('.legal-sections'))!;
    for (const fact of [
      'United States',
      'under 13',
      'State of Florida',
      'within 1 year',
      'by e-mail',
      'Termination',
      'Copyright',
      'liab',
    ]) {
      expect(text).toContain(fact);
    }
    // The side nav highlights the current page only.
    expect(await page.getAttribute('[data-side-nav="terms"]', 'aria-current')).toBe('page');
    expect(await page.getAttribute('[data-side-nav="privacy"]', 'aria-current')).toBeNull();
  });

  it('privacy: dated January 3, 2024, with a help e-mail link', async () => {
    await visit(page, '/privacy');
    expect(await page.title()).toBe('privacy. · Gallery Tree');
    expect(await page.getAttribute('.static-page__updated time', 'datetime')).toBe('2024-01-03');
    expect(await page.textContent('.static-page__updated')).toContain('January 3, 2024');
    expect(await page.locator(`a[href="mailto:${gallery.app.deps.config.helpEmail}"]`).count()).toBeGreaterThan(0);
    expect(await page.getAttribute('[data-side-nav="privacy"]', 'aria-current')).toBe('page');
  });

  it('contact: the form with its four fields, in the shared side nav', async () => {
    await visit(page, '/contact');
    expect(await page.title()).toBe('contact. · Gallery Tree');
    for (const name of ['email', 'reason', 'subject', 'message'])
      expect(await page.locator(`form [name="${name}"]`).count()).toBe(1);
    expect(await page.locator('select[name="reason"] option').allTextContents()).toEqual([
      'Choose a reason',
      'Question',
      'Technical Issue',
      'Comment/Critique',
      'Feature Request',
      'General Request',
      'Other',
    ]);
    expect(await page.getAttribute('input[name="subject"]', 'maxlength')).toBe('255');
    expect(await page.getAttribute('input[name="email"]', 'maxlength')).toBe('128');
    expect(await page.getAttribute('textarea[name="message"]', 'maxlength')).toBe('4096');
    expect(await page.getAttribute('[data-side-nav="contact"]', 'aria-current')).toBe('page');
    // The gallery's addresses and phone, beside the form and in the footer.
    for (const where of ['.contact-aside', '.site-footer']) {
      const details = page.locator(`${where} [data-testid="contact-details"]`);
      expect(await details.locator('a[href="mailto:hello@gallery-tree.local"]').count()).toBe(1);
      expect(await details.locator('a[href="mailto:help@gallery-tree.local"]').count()).toBe(1);
      expect(await details.locator('a[href="tel:+15550100199"]').textContent()).toBe(PHONE);
    }
  });

  it('forbidden shows 403 and Forbidden; an unknown path shows not found', async () => {
    await visit(page, '/forbidden');
    expect(await page.textContent('.page__code')).toBe('403');
    expect(await page.textContent('h1')).toBe('Forbidden');
    await visit(page, '/no/such/page');
    expect(await page.textContent('.page__code')).toBe('404');
    expect(await page.textContent('h1')).toBe('not found.');
  });

  it('the footer offers its menu, participate included for a guest, and no social links', async () => {
    await visit(page, '/');
    expect(
      await page.$$eval('[data-footer-item]', (links) => links.map((l) => l.getAttribute('data-footer-item'))),
    ).toEqual(['learn', 'observe', 'participate', 'terms', 'privacy', 'faqs', 'contact']);
    expect(
      await page
        .locator('.site-footer a[href*="facebook"], .site-footer a[href*="twitter"], .site-footer a[href*="instagram"]')
        .count(),
    ).toBe(0);
  });
});

describe('the header menu on a 360 × 740 phone', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage({ width: 360, height: 740 });
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
      await visit(page, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(360);
    }
  });

  it('opens to half the page height, hiding the routed view, and closes on a menu-link click', async () => {
    await visit(page, '/');
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
    await page.waitForURL(`${gallery.url}/learn`);
    // The address changes first; the page's own module may still be loading (slow on a busy machine).
    await page.locator('h1', { hasText: /^learn\.$/ }).waitFor();
    expect(await panel.isVisible()).toBe(false);
    expect(await page.locator('main#main').isVisible()).toBe(true);
    expect(await page.textContent('h1')).toBe('learn.');
  });

  it('closes with the toggle and on a window resize', async () => {
    await visit(page, '/faqs');
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
    const page = await openPage({ width: 360, height: 740 });
    await visit(page, '/');
    expect(await headerItems(page)).toEqual(['learn', 'observe', 'participate', 'contact', 'login', 'register']);
    expect(await page.locator('[data-menu-item="logout"]').count()).toBe(0);
    expect(await page.locator('[data-testid="user-strip"]').count()).toBe(0);
  });

  it('the admin sees profile and the dashboard (outside the router), a logout entry and their strip; logging out goes to welcome', async () => {
    const page = await openPage({ width: 360, height: 740 });
    await visit(page, '/learn');
    expect(await logInAsAdmin(page)).toBe(200);
    await visit(page, '/learn');
    const admin = gallery.app.deps.db.select().from(users).where(eq(users.email, E2E_ADMIN.email)).get()!;

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
    await page.waitForURL(`${gallery.url}/`);
    // Going to welcome closes the menu (the strip is hidden while it is open, so wait for the menu first).
    await page.waitForSelector('.menu-toggle[aria-expanded="false"]');
    await page.locator('[data-testid="user-strip"]').waitFor({ state: 'detached' });
    expect(await headerItems(page)).toEqual(['learn', 'observe', 'participate', 'contact', 'login', 'register']);
  });

  it('a signed-in visitor is not offered participate on welcome or in the footer', async () => {
    const page = await openPage();
    await visit(page, '/');
    expect(await logInAsAdmin(page)).toBe(200);
    await visit(page, '/');
    expect(await page.locator('[data-welcome-link="participate"]').count()).toBe(0);
    expect(await page.locator('[data-footer-item="participate"]').count()).toBe(0);
  });
});

describe('the contact form', () => {
  const rows = () => gallery.app.deps.db.select({ n: count() }).from(contactMessages).get()!.n;

  it('checks the fields in the browser, and editing a field clears its error', async () => {
    const page = await openPage({ width: 360, height: 740 });
    await visit(page, '/contact');
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
    // Its own page, outside the console check below: the browser logs the server's 400 answer.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await visit(page, '/contact');
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
    await page.close();
  });

  it('sends a message that reaches the help address through the outbox', async () => {
    const page = await openPage();
    await visit(page, '/contact');
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

    const stored = gallery.app.deps.db.select().from(contactMessages).where(eq(contactMessages.subject, subject)).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ email: 'visitor@example.test', reason: 'Feature Request' });

    await deliverOutbox(gallery.app.deps);
    const mails = readOutbox(gallery.app.deps.config.outboxDir).filter((mail) => mail.subject.includes(subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(gallery.app.deps.config.helpEmail);
    expect(mails[0]!.text).toContain('Reply to: visitor@example.test');
  });
});

describe('all along', () => {
  it('there were no console errors or Content Security Policy violations', () => {
    expect(pages.flatMap(({ errors }) => errors)).toEqual([]);
  });
});
