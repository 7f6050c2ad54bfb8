/**
 * Claims in the database (server/services/leases.ts) on one real SQLite file: however many job runners share it,
 * a job runs once per interval; a claim whose owner died runs out and is taken over; an e-mail claimed by a dead
 * sender waits for its claim to run out, then goes out once. The same with real processes: processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobLeases, mailOutbox } from '#drizzle/schema.ts';
import { startJobs, type Job } from '#server/services/jobs.ts';
import { claimJob, finishJob, LEASE_MS, renewJob } from '#server/services/leases.ts';
import { deliverOutbox, enqueueMail } from '#server/services/mail.ts';
import { createTestApp, type TestApp } from '#tests/helpers/test-app.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';

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

const lease = (name: string) => t.deps.db.select().from(jobLeases).where(eq(jobLeases.name, name)).get();

describe('job claims', () => {
  it('one claim at a time: a second owner cannot take a held job until its lease runs out', () => {
    const now = t.clock.now();
    expect(claimJob(t.deps.db, 'held-job', 'owner-a', now)).toBe(true);
    expect(claimJob(t.deps.db, 'held-job', 'owner-b', now + 1000)).toBe(false);
    // A renewal moves the lease on; the owner that lost it cannot renew.
    expect(renewJob(t.deps.db, 'held-job', 'owner-a', now + LEASE_MS - 1)).toBe(true);
    expect(claimJob(t.deps.db, 'held-job', 'owner-b', now + LEASE_MS + 1)).toBe(false);
    // owner-a dies: after its last lease, owner-b takes the job over.
    expect(claimJob(t.deps.db, 'held-job', 'owner-b', now + 2 * LEASE_MS)).toBe(true);
    expect(lease('held-job')!.owner).toBe('owner-b');
    expect(renewJob(t.deps.db, 'held-job', 'owner-a', now + 2 * LEASE_MS)).toBe(false);
    // A late finish by the old owner changes nothing.
    finishJob(t.deps.db, 'held-job', 'owner-a', now + 2 * LEASE_MS, 0);
    expect(lease('held-job')!.owner).toBe('owner-b');
  });

  it('a finished job is not due again before its next run, unless asked for by hand', () => {
    const now = t.clock.now();
    expect(claimJob(t.deps.db, 'interval-job', 'owner-a', now)).toBe(true);
    finishJob(t.deps.db, 'interval-job', 'owner-a', now, now + 60_000);
    expect(claimJob(t.deps.db, 'interval-job', 'owner-b', now + 59_999)).toBe(false);
    expect(claimJob(t.deps.db, 'interval-job', 'owner-b', now + 1, { anyTime: true })).toBe(true);
    finishJob(t.deps.db, 'interval-job', 'owner-b', now + 1, now + 60_000);
    expect(claimJob(t.deps.db, 'interval-job', 'owner-a', now + 60_000)).toBe(true);
  });

  it('three runners on one database, started at once: a slow job runs once', async () => {
    let runs = 0;
    const job: Job = {
      name: 'slow-job',
      everyMs: 60_000,
      run: async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      },
    };
    const runners = ['a', 'b', 'c'].map((owner) => startJobs(t.deps, [job], { owner, leaseMs: LEASE_MS }));
    await Promise.all(runners.map((runner) => runner.runAll()));
    await Promise.all(runners.map((runner) => runner.stop()));
    expect(runs).toBe(1);
    expect(lease('slow-job')).toMatchObject({ owner: null, leaseUntil: 0 });
  });
});

describe('e-mail claims', () => {
  it('a message claimed by a sender that died goes out once, after its claim runs out', async () => {
    const db = t.deps.db;
    db.transaction((tx) => enqueueMail(tx, t.clock.now(), { to: 'claimed@mail.test', subject: 'Claimed', text: 'Hello', kind: 'test', dedupeKey: 'claimed-by-dead' }));
    const id = db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, 'claimed-by-dead')).get()!.id;
    // A sender claimed it and died before answering.
    db.update(mailOutbox).set({ state: 'sending', attempts: 1, claimedBy: 'dead-owner', claimUntil: t.clock.now() + LEASE_MS }).where(eq(mailOutbox.id, id)).run();

    expect(await deliverOutbox(t.deps, { owner: 'live-owner', leaseMs: LEASE_MS })).toBe(0);
    expect(smtp.received.filter((m) => m.to[0] === 'claimed@mail.test')).toHaveLength(0);

    t.clock.advance(LEASE_MS);
    expect(await deliverOutbox(t.deps, { owner: 'live-owner', leaseMs: LEASE_MS })).toBe(1);
    expect(await deliverOutbox(t.deps, { owner: 'other-owner', leaseMs: LEASE_MS })).toBe(0);
    expect(smtp.received.filter((m) => m.to[0] === 'claimed@mail.test')).toHaveLength(1);
    expect(db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get()).toMatchObject({ state: 'sent', attempts: 2, claimedBy: null });
  });

  it('two senders at once on the same queue: every message once', async () => {
    const db = t.deps.db;
    const before = smtp.received.length;
    db.transaction((tx) => {
      for (let i = 0; i < 30; i++) enqueueMail(tx, t.clock.now(), { to: `twice${i}@mail.test`, subject: `Message ${i}`, text: 'Hello', kind: 'test' });
    });
    const sent = await Promise.all(['sender-a', 'sender-b'].map((owner) => deliverOutbox(t.deps, { owner, leaseMs: LEASE_MS })));
    expect(sent[0]! + sent[1]!).toBe(30);
    const ids = smtp.received.slice(before).map((m) => m.messageId);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
