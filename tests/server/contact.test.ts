import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc } from 'drizzle-orm';
import { contactMessages, mailOutbox } from '#drizzle/tables.ts';
import { CONTACT_LIMITS, CONTACT_REASONS } from '#shared/constants.ts';
import { Role } from '#shared/domain.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { toAppError } from '#server/errors.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { readOutbox } from '#tests/helpers/outbox.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ helpEmail: 'help@contact.test' });
});
afterAll(() => t.cleanup());

const rows = async () => (await oneRow(t.deps.db.select({ n: count() }).from(contactMessages))).n;
const mails = async () => (await oneRow(t.deps.db.select({ n: count() }).from(mailOutbox))).n;

let serial = 0;
function goodMessage(change: Record<string, unknown> = {}) {
  serial++;
  return {
    subject: `A question about squares #${serial}`,
    reason: 'Question',
    email: `visitor${serial}@mail.test`,
    message: 'How long may I keep a square before I upload my piece?',
    ...change,
  };
}

describe('the contact form (POST /api/misc/contact)', () => {
  it('stores the message and queues one e-mail to the help address, with the sender to reply to', async () => {
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    const sent = goodMessage({ subject: '  Where do I start?  ', reason: 'General Request' });
    const res = await new BrowserLike(t.server).post('/api/misc/contact', sent);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ r: { ok: true } });
    expect(await rows()).toBe(rowsBefore + 1);
    expect(await mails()).toBe(mailsBefore + 1);

    const row = await oneRow(t.deps.db.select().from(contactMessages).orderBy(desc(contactMessages.id)));
    expect(row).toMatchObject({
      subject: 'Where do I start?',
      reason: 'General Request',
      email: sent.email,
      userId: null,
    });
    const queued = await oneRow(t.deps.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)));
    expect(queued).toMatchObject({ toAddress: 'help@contact.test', kind: 'contact', state: 'queued' });
    expect(queued.subject).toContain('Where do I start?');
    expect(queued.textBody).toContain(`Reply to: ${sent.email}`);
    expect(queued.textBody).toContain(sent.message);

    await deliverOutbox(t.deps);
    const delivered = readOutbox(t.deps.config.outboxDir).filter((mail) => mail.subject.includes('Where do I start?'));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.to).toBe('help@contact.test');
  });

  it('accepts every reason of the list', async () => {
    for (const reason of CONTACT_REASONS) {
      expect((await new BrowserLike(t.server).post('/api/misc/contact', goodMessage({ reason }))).status).toBe(200);
    }
  });

  it('remembers a signed-in sender', async () => {
    const { user, cookie } = await t.addUser(Role.Observer);
    const browser = new BrowserLike(t.server);
    browser.setCookie('session', cookie.split('=')[1]!);
    expect((await browser.post('/api/misc/contact', goodMessage())).status).toBe(200);
    const row = await oneRow(t.deps.db.select().from(contactMessages).orderBy(desc(contactMessages.id)));
    expect(row.userId).toBe(user.id);
  });

  it.each([
    [{ subject: undefined }, 'subject', 'Subject cannot be blank.'],
    [{ subject: '   ' }, 'subject', 'Subject cannot be blank.'],
    [{ reason: undefined }, 'reason', 'Reason cannot be blank.'],
    [{ reason: '' }, 'reason', 'Reason cannot be blank.'],
    [{ reason: 'Complaint' }, 'reason', 'Invalid value.'],
    [{ email: undefined }, 'email', 'Email cannot be blank.'],
    [{ email: 'not-an-address' }, 'email', 'Invalid email address.'],
    [{ email: 'two@at@mail.test' }, 'email', 'Invalid email address.'],
    [{ message: undefined }, 'message', 'Message cannot be blank.'],
    [{ message: ' \n ' }, 'message', 'Message cannot be blank.'],
    [{ subject: 's'.repeat(CONTACT_LIMITS.subject + 1) }, 'subject', 'Maximal length is 255 symbols.'],
    [{ email: `${'a'.repeat(CONTACT_LIMITS.email - 9)}@mail.test` }, 'email', 'Maximal length is 128 symbols.'],
    [{ message: 'm'.repeat(CONTACT_LIMITS.message + 1) }, 'message', 'Maximal length is 4096 symbols.'],
  ])('refuses %j with the message on %s, and stores nothing', async (change, field, message) => {
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    const res = await new BrowserLike(t.server).post('/api/misc/contact', goodMessage(change));
    expect(res.status).toBe(400);
    expect(res.body.r.error).toBe('validation_failed');
    expect(res.body.r.errors).toEqual({ [field]: [message] });
    expect(await rows()).toBe(rowsBefore);
    expect(await mails()).toBe(mailsBefore);
  });

  it('accepts fields exactly at their limits', async () => {
    const res = await new BrowserLike(t.server).post(
      '/api/misc/contact',
      goodMessage({
        subject: 's'.repeat(CONTACT_LIMITS.subject),
        email: `${'a'.repeat(CONTACT_LIMITS.email - 10)}@mail.test`,
        message: 'm'.repeat(CONTACT_LIMITS.message),
      }),
    );
    expect(res.status).toBe(200);
  });

  it('lists every failing field at once', async () => {
    const res = await new BrowserLike(t.server).post('/api/misc/contact', {});
    expect(res.status).toBe(400);
    expect(res.body.r.errors).toEqual({
      subject: ['Subject cannot be blank.'],
      reason: ['Reason cannot be blank.'],
      email: ['Email cannot be blank.'],
      message: ['Message cannot be blank.'],
    });
  });

  it(`limits one address to ${LIMITS.contactPerIp.max} messages an hour, and stores nothing past it`, async () => {
    const browser = new BrowserLike(t.server);
    for (let i = 0; i < LIMITS.contactPerIp.max; i++) {
      expect((await browser.post('/api/misc/contact', goodMessage())).status).toBe(200);
    }
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    const refused = await browser.post('/api/misc/contact', goodMessage());
    expect(refused.status).toBe(429);
    expect(refused.body.r.error).toBe('rate_limited');
    expect(await rows()).toBe(rowsBefore);
    expect(await mails()).toBe(mailsBefore);
    // Another visitor is not affected, and the window opens again an hour later.
    expect((await new BrowserLike(t.server).post('/api/misc/contact', goodMessage())).status).toBe(200);
    t.clock.advance(LIMITS.contactPerIp.windowMs);
    expect((await browser.post('/api/misc/contact', goodMessage())).status).toBe(200);
  });

  it('refuses a message without the CSRF token, and stores nothing', async () => {
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    const res = await t.server.inject({ method: 'POST', url: '/api/misc/contact', payload: goodMessage() });
    expect(res.statusCode).toBe(403);
    expect(res.json().r.error).toBe('csrf_failed');
    expect(await rows()).toBe(rowsBefore);
    expect(await mails()).toBe(mailsBefore);
  });
});

describe('misc.contact through tRPC', () => {
  it('stores and queues through the procedure as well', async () => {
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    t.clock.advance(LIMITS.contactPerIp.windowMs); // the caller's fixed IP starts a fresh window
    expect(await t.caller().misc.contact(goodMessage())).toEqual({ ok: true });
    expect(await rows()).toBe(rowsBefore + 1);
    expect(await mails()).toBe(mailsBefore + 1);
  });

  it('answers the same field errors as the REST path', async () => {
    const [rowsBefore, mailsBefore] = [await rows(), await mails()];
    const error = await t
      .caller()
      .misc.contact(goodMessage({ email: 'nope', reason: 'Gossip' }))
      .catch((e: unknown) => e);
    expect(toAppError(error).toBody()).toMatchObject({
      error: 'validation_failed',
      errors: { email: ['Invalid email address.'], reason: ['Invalid value.'] },
    });
    expect(await rows()).toBe(rowsBefore);
    expect(await mails()).toBe(mailsBefore);
  });
});
