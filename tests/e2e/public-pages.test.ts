/**
 * The public pages in a real browser: the preloader and every public page. The header menu and the contact form are
 * in header-and-contact.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FAQS } from '#client/pages/copy/faqs.ts';
import { THE_GROUND } from '#client/pages/copy/principles.ts';

import { PHONE, usePublicPages } from '#tests/helpers/browser/public-pages.ts';

const site = usePublicPages();

describe('the preloader', () => {
  it('plays our logo animation once, signals its end, and goes away when the page is ready', async () => {
    // A first visit: the page is ready only once everything has come from the server.
    const page = await site.openFirstVisit();
    const started = Date.now();
    await page.goto(`${site.gallery.url}/?preload`);
    const preloader = page.locator('.preloader');
    await preloader.waitFor({ state: 'visible' });
    expect(await preloader.getAttribute('data-animation')).toBe('playing');
    expect(await page.locator('.preloader .logo-mark__square').count()).toBe(14);
    // No loop: every animation in it has an iteration count of one.
    const iterations = await page.$$eval('.preloader *', (elements) => [
      ...new Set(elements.map((element) => getComputedStyle(element).animationIterationCount)),
    ]);
    expect(iterations).toEqual(['1']);

    // The end of the animation is signalled (animationend), not guessed from a timer. The preloader says "done" for
    // about half a second before it goes, which a page starved of CPU (a loaded test machine) may not look at in
    // time: the page's own state, which stays, says it too.
    await page.waitForFunction(
      () =>
        document.querySelector('.preloader[data-animation="done"]') !== null ||
        document.documentElement.dataset.preloader === 'done',
      null,
      { timeout: 30_000 },
    );
    await preloader.waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - started).toBeGreaterThan(6_000);
    expect(await page.evaluate(() => document.documentElement.dataset.preloader)).toBe('done');
    await expect(page.locator('h1').textContent()).resolves.toContain('welcome');
  });

  it('can be skipped with a key press', async () => {
    const page = await site.openPage();
    await page.goto(`${site.gallery.url}/learn?preload`);
    await page.locator('.preloader').waitFor({ state: 'visible' });
    const started = Date.now();
    await page.keyboard.press('Space');
    await page.locator('.preloader').waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await page.title()).toBe('learn. · Gallery Tree');
  });

  it('is skipped for automated browsers and with ?nopreload', async () => {
    const page = await site.openPage();
    await site.visit(page, '/');
    expect(await page.evaluate(() => document.documentElement.dataset.preloader)).toBe('skipped');
    expect(await page.locator('.preloader').count()).toBe(0);
    await site.visit(page, '/faqs?nopreload');
    expect(await page.locator('.preloader').count()).toBe(0);
  });
});

describe('the public pages', () => {
  let page: Page;
  beforeAll(async () => {
    page = await site.openPage();
  });

  it('welcome: the introduction and the ways in, participate included for a guest', async () => {
    await site.visit(page, '/');
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
    await site.visit(page, '/learn');
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
    await site.visit(page, '/participate');
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
    await site.visit(page, '/faqs');
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
    await site.visit(page, '/terms');
    expect(await page.title()).toBe('terms. · Gallery Tree');
    const sections = page.locator('[data-testid="legal-section"]');
    expect(await sections.count()).toBe(25);
    expect(await sections.nth(24).locator('h2').textContent()).toMatch(/^25\. /);
    expect(await page.getAttribute('.static-page__updated time', 'datetime')).toBe('2023-12-29');
    expect(await page.textContent('.static-page__updated')).toContain('December 29, 2023');
    const helpEmail = site.gallery.app.deps.config.helpEmail;
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

    // A link in the text opens the other page at its top; Back comes to where the reader was, Forward to the top.
    const link = page.locator('.static-page__body a[href="/privacy"]').first();
    await link.scrollIntoViewIfNeeded();
    const readAt = await page.evaluate(() => window.scrollY);
    expect(readAt).toBeGreaterThan(0);
    await link.click();
    await page.waitForFunction(() => document.title.startsWith('privacy.'));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForFunction(() => document.title.startsWith('terms.'));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(readAt);
    await page.goForward();
    await page.waitForFunction(() => document.title.startsWith('privacy.'));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('privacy: dated January 3, 2024, with a help e-mail link', async () => {
    await site.visit(page, '/privacy');
    expect(await page.title()).toBe('privacy. · Gallery Tree');
    expect(await page.getAttribute('.static-page__updated time', 'datetime')).toBe('2024-01-03');
    expect(await page.textContent('.static-page__updated')).toContain('January 3, 2024');
    expect(await page.locator(`a[href="mailto:${site.gallery.app.deps.config.helpEmail}"]`).count()).toBeGreaterThan(0);
    expect(await page.getAttribute('[data-side-nav="privacy"]', 'aria-current')).toBe('page');
  });

  it('contact: the form with its four fields, in the shared side nav', async () => {
    await site.visit(page, '/contact');
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
    await site.visit(page, '/forbidden');
    expect(await page.textContent('.page__code')).toBe('403');
    expect(await page.textContent('h1')).toBe('Forbidden');
    await site.visit(page, '/no/such/page');
    expect(await page.textContent('.page__code')).toBe('404');
    expect(await page.textContent('h1')).toBe('not found.');
  });

  it('the footer offers its menu, participate included for a guest, and no social links', async () => {
    await site.visit(page, '/');
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
