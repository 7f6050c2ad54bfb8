/**
 * Accounts in a real browser (docs/product.md, Who may do what; decision 006): register, log out and in, change the
 * account, reset and restore the password through the e-mailed link, and the route guards, all through the pages a
 * visitor uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { TIMINGS } from '#shared/constants.ts';
import { linkIn, readOutbox } from '../helpers/outbox.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
/** Every mutation the page sends to the server, by procedure path (e.g. 'auth.register'). */
let mutations: string[];

const email = `ada.${Date.now().toString(36)}@example.com`;
const passwords = { first: 'first-pass-1', second: 'second pass 2', restored: 'restored-pass-3' };

const path = () => new URL(page.url()).pathname;
const open = (to: string) => page.goto(`${gallery.url}${to}`);

/** The signed-in user as the server sees this browser, or null for a guest. */
async function currentUser(): Promise<{ firstname: string; email: string } | null> {
  return page.evaluate(async () => {
    const response = await fetch('/api/user/current', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    return response.ok ? ((await response.json()) as { r: { firstname: string; email: string } }).r : null;
  });
}

/** The header's strip with the signed-in visitor's first name (a link to manage profile). */
const userStrip = () => page.locator('header a[href="/profile"]').first();

async function waitForText(selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([sel, expected]) => document.querySelector(sel)?.textContent?.includes(expected) === true,
    [selector, text] as const,
  );
}

async function formMessage(): Promise<string> {
  const message = page.getByTestId('form-message');
  await message.waitFor();
  return (await message.textContent())!.trim();
}

async function logIn(password: string): Promise<void> {
  await open('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Logs out through the header's menu, as a visitor does. */
async function logOut(): Promise<void> {
  await page.getByRole('button', { name: 'menu', exact: true }).click();
  await page.locator('[data-menu-item="logout"]').click();
  await page.waitForURL((url) => url.pathname === '/');
  await userStrip().waitFor({ state: 'detached' });
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser('cpu')]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = watchErrors(page);
  mutations = [];
  page.on('request', (request) => {
    const match = /\/trpc\/([^?]+)/.exec(request.url());
    if (match && request.method() === 'POST') mutations.push(...match[1]!.split(','));
  });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('accounts in the browser', () => {
  it('checks the registration form in the browser, with the server’s messages, before sending anything', async () => {
    await open('/registration');
    await page.getByRole('heading', { name: 'register.' }).waitFor();
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('ada-at-example');
    await page.getByLabel('Password').fill('abc');
    await page.getByRole('button', { name: 'Register' }).click();

    expect(await page.getByTestId('error-email').textContent()).toBe('Invalid email address.');
    expect(await page.getByTestId('error-password').textContent()).toBe('Minimal length is 6 symbols.');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('error-firstname').count()).toBe(0);
    expect(mutations).toEqual([]);

    // Editing a field clears its error, and only its error.
    await page.getByLabel('Email').fill(email);
    expect(await page.getByTestId('error-email').count()).toBe(0);
    expect(await page.getByTestId('error-password').count()).toBe(1);
  });

  it('registers, reloads the current user and goes to welcome', async () => {
    await page.getByLabel('Password').fill(passwords.first);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await waitForText('header a[href="/profile"]', 'Ada');
    expect(await currentUser()).toMatchObject({ firstname: 'Ada', email });
    expect(mutations).toEqual(['auth.register']);
  });

  it('logs out through the header and goes to welcome as a guest', async () => {
    await open('/faqs');
    await userStrip().waitFor();
    await logOut();
    expect(path()).toBe('/');
    expect(await currentUser()).toBeNull();
  });

  it('shows a wrong password as one message, then logs in with the right one', async () => {
    await logIn('not-my-password-9');
    // The address field says what it asks for; the form sends it as `username`, as the API names it.
    const address = page.locator('form[aria-label="Log in"] input[type="email"]');
    expect(await address.evaluate((input: HTMLInputElement) => [...input.labels!].map((l) => l.textContent))).toEqual([
      'Email',
    ]);
    expect(await address.getAttribute('name')).toBe('username');
    expect(await formMessage()).toBe('Wrong e-mail address or password.');
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await page.locator('.field__error').count()).toBe(0);
    expect(path()).toBe('/login');

    await page.getByLabel('Password', { exact: true }).fill(passwords.first);
    // Editing clears the message.
    expect(await page.getByTestId('form-message').count()).toBe(0);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await waitForText('header a[href="/profile"]', 'Ada');
  });

  it('changes the first name and the password on the ACCOUNT tab', async () => {
    await userStrip().click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('heading', { name: 'manage profile.' }).waitFor();
    // A new member is an observer: ACCOUNT and FOLLOWING only.
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Account', 'Following']);
    await page.getByRole('tab', { name: 'Account' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByText(/6–64 characters, with at least one number or special sign/).count()).toBe(1);

    await page.getByLabel('First name').fill('Augusta');
    await page.getByLabel('New password').fill(passwords.second);
    await page.getByLabel('Confirm password').fill('something else 1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByTestId('error-confirm_password').textContent()).toBe(
      'The password confirmation does not match.',
    );
    expect(mutations.filter((m) => m === 'user.updateAccount')).toEqual([]);

    await page.getByLabel('Confirm password').fill(passwords.second);
    // A new password needs the current one.
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByTestId('error-current_password').textContent()).toBe(
      'Enter your current password to change your e-mail address or password.',
    );
    await page.getByLabel('Current password').fill(passwords.first);
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await formMessage()).toBe('Your account is saved.');
    await waitForText('header a[href="/profile"]', 'Augusta');
    expect(await page.getByLabel('New password').inputValue()).toBe('');
    expect(await currentUser()).toMatchObject({ firstname: 'Augusta' });

    // The success message goes away by itself.
    await page.getByTestId('form-message').waitFor({ state: 'detached', timeout: TIMINGS.successMessageMs + 2_000 });
  });

  it('logs in with the new password after logging out', async () => {
    await logOut();
    await logIn(passwords.first);
    expect(await formMessage()).toBe('Wrong e-mail address or password.');
    await logIn(passwords.second);
    await page.waitForURL((url) => url.pathname === '/');
    await waitForText('header a[href="/profile"]', 'Augusta');
  });

  it('sends a logged-in visitor away from the guest pages, to welcome', async () => {
    for (const guestPage of ['/login', '/registration', '/reset-password']) {
      await open(guestPage);
      await page.waitForURL((url) => url.pathname === '/');
    }
    await userStrip().waitFor();
  });

  it('resets the password through the e-mailed link', async () => {
    await logOut();
    await open('/reset-password');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    const answer = await formMessage();
    expect(answer).toMatch(/If an account uses this address/);

    // An address without an account gets the very same answer.
    await page.getByLabel('Email address').fill('nobody.here@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await formMessage()).toBe(answer);

    await deliverOutbox(gallery.app.deps);
    const mail = readOutbox(gallery.app.deps.config.outboxDir).find((m) => m.to.includes(email));
    expect(mail).toBeDefined();
    const link = new URL(linkIn(mail!, /https?:\/\/\S+\/restore-password\/[A-Za-z0-9_-]+/));

    await open(link.pathname);
    await page.getByRole('heading', { name: 'restore password.' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    expect(await page.getByTestId('error-password').textContent()).toBe('Minimal length is 6 symbols.');

    await page.getByLabel('New password').fill(passwords.restored);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    expect(await formMessage()).toMatch(/new password is set/);
    // After success the form is gone.
    expect(await page.locator('form').count()).toBe(0);

    // The link works once: any failure shows the one 'cannot be updated' message.
    await open(link.pathname);
    await page.getByLabel('New password').fill('another-pass-4');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    expect(await formMessage()).toMatch(/cannot be updated/);

    await logIn(passwords.restored);
    await page.waitForURL((url) => url.pathname === '/');
    await waitForText('header a[href="/profile"]', 'Augusta');
  });

  it('asks a guest opening a members’ page (as from an e-mail’s link) to log in, then brings them to it', async () => {
    await logOut();
    await open('/profile?tab=atelier');
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('next') === '/profile?tab=atelier',
    );
    expect(await userStrip().count()).toBe(0);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(passwords.restored);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('tab') === 'atelier');
    await userStrip().waitFor();
  });

  it('never follows a return address that leaves the site', async () => {
    await logOut();
    await open(`/login?next=${encodeURIComponent('//elsewhere.example/phish')}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(passwords.restored);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.origin === new URL(gallery.url).origin && url.pathname === '/');
  });

  it('runs without page errors (failed logins aside, which the browser logs as 4xx loads)', () => {
    expect(
      errors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e)),
    ).toEqual([]);
  });
});
