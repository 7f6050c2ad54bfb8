/**
 * The outbox over real SMTP (decision 006): a server started here on loopback receives what the outbox sends, each
 * message once; while it is down, messages wait and are retried with back-off; a message claimed by a sender that
 * died goes out once, after its claim, and two senders on one queue send each message once (decision 025).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '#drizzle/tables.ts';
import { LEASE_MS } from '#server/services/leases.ts';
import { deliverOutbox, enqueueMail } from '#server/services/mail/mail.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/server/smtp-sink.ts';
import { write } from '#server/db.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
});
afterAll(async () => {
  await t.cleanup();
  await smtp.stop();
});

const row = async (id: number) => await oneRow(t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)));

describe('the outbox over SMTP', () => {
  it('delivers a queued message to the SMTP server once, however often the sender runs', async () => {
    await write(t.deps.db, async (tx) =>
      enqueueMail(tx, t.clock.now(), {
        to: 'artist@mail.test',
        subject: 'Your piece is live',
        text: 'Hello!\nhttp://x.test/a',
        kind: 'test',
        dedupeKey: 'smtp-once',
      }),
    );
    // Enqueueing the same key again adds nothing.
    await write(t.deps.db, async (tx) =>
      enqueueMail(tx, t.clock.now(), {
        to: 'artist@mail.test',
        subject: 'Your piece is live',
        text: 'Hello!',
        kind: 'test',
        dedupeKey: 'smtp-once',
      }),
    );
    expect(await deliverOutbox(t.deps)).toBe(1);
    expect(await deliverOutbox(t.deps)).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['artist@mail.test']);
    expect(smtp.received[0]!.raw).toMatch(/^Subject: Your piece is live$/m);
    expect(smtp.received[0]!.raw).toMatch(/^Message-ID: <outbox-\d+@localhost>$/m);
  });

  it('keeps a message while the server is down and sends it, once, after the back-off', async () => {
    const port = smtp.port;
    await smtp.stop();
    await write(t.deps.db, async (tx) =>
      enqueueMail(tx, t.clock.now(), {
        to: 'late@mail.test',
        subject: 'Reminder',
        text: 'Later',
        kind: 'test',
        dedupeKey: 'smtp-retry',
      }),
    );
    const id = (await oneRow(t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, 'smtp-retry')))).id;
    expect(await deliverOutbox(t.deps)).toBe(0);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect((await row(id)).nextAttemptAt).toBeGreaterThan(t.clock.now());
    expect((await row(id)).lastError).toBeTruthy();

    smtp = await startSmtpSink({ port });
    expect(await deliverOutbox(t.deps)).toBe(0); // not due yet
    t.clock.advance((await row(id)).nextAttemptAt - t.clock.now());
    expect(await deliverOutbox(t.deps)).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(smtp.received.map((m) => m.to[0])).toEqual(['late@mail.test']);
  });
});

describe('e-mail claims', () => {
  it('a message claimed by a sender that died goes out once, after its claim runs out', async () => {
    const db = t.deps.db;
    await write(db, async (tx) =>
      enqueueMail(tx, t.clock.now(), {
        to: 'claimed@mail.test',
        subject: 'Claimed',
        text: 'Hello',
        kind: 'test',
        dedupeKey: 'claimed-by-dead',
      }),
    );
    const id = (await oneRow(db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, 'claimed-by-dead')))).id;
    // A sender claimed it and died before answering.
    await db
      .update(mailOutbox)
      .set({ state: 'sending', attempts: 1, claimedBy: 'dead-owner', claimUntil: t.clock.now() + LEASE_MS })
      .where(eq(mailOutbox.id, id));

    expect(await deliverOutbox(t.deps, { owner: 'live-owner', leaseMs: LEASE_MS })).toBe(0);
    expect(smtp.received.filter((m) => m.to[0] === 'claimed@mail.test')).toHaveLength(0);

    t.clock.advance(LEASE_MS);
    expect(await deliverOutbox(t.deps, { owner: 'live-owner', leaseMs: LEASE_MS })).toBe(1);
    expect(await deliverOutbox(t.deps, { owner: 'other-owner', leaseMs: LEASE_MS })).toBe(0);
    expect(smtp.received.filter((m) => m.to[0] === 'claimed@mail.test')).toHaveLength(1);
    expect(await firstRow(db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))).toMatchObject({
      state: 'sent',
      attempts: 2,
      claimedBy: null,
    });
  });

  it('two senders at once on the same queue: every message once', async () => {
    const db = t.deps.db;
    const before = smtp.received.length;
    await write(db, async (tx) => {
      for (let i = 0; i < 30; i++)
        await enqueueMail(tx, t.clock.now(), {
          to: `twice${i}@mail.test`,
          subject: `Message ${i}`,
          text: 'Hello',
          kind: 'test',
        });
    });
    const sent = await Promise.all(
      ['sender-a', 'sender-b'].map((owner) => deliverOutbox(t.deps, { owner, leaseMs: LEASE_MS })),
    );
    expect(sent[0]! + sent[1]!).toBe(30);
    const ids = smtp.received.slice(before).map((m) => m.messageId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
