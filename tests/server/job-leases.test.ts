/**
 * Claims in the database (server/services/leases.ts), on a real SQLite file and a real PostgreSQL database: however
 * many job runners share it, a job runs once per interval; a claim whose owner died runs out and is taken over.
 * E-mail claims: mail-smtp.test.ts; the same with real processes: processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobLeases } from '#drizzle/tables.ts';
import { ENGINES, openEngineDatabase, type EngineDatabase } from '#tests/helpers/server/engines.ts';
import { startJobs, type Job } from '#server/services/jobs.ts';
import { claimJob, finishJob, LEASE_MS, renewJob } from '#server/services/leases.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.cleanup());

const T = Date.UTC(2026, 10, 26, 12);

describe.each(ENGINES)('job claims on %s', (engine) => {
  let database: EngineDatabase;
  beforeAll(async () => {
    database = await openEngineDatabase(engine);
  });
  afterAll(() => database.close());
  const lease = async (name: string) => (await database.db.select().from(jobLeases).where(eq(jobLeases.name, name)))[0];

  it('one claim at a time: a second owner cannot take a held job until its lease runs out', async () => {
    const now = T;
    expect(await claimJob(database.db, 'held-job', 'owner-a', now)).toBe(true);
    expect(await claimJob(database.db, 'held-job', 'owner-b', now + 1000)).toBe(false);
    // A renewal moves the lease on; the owner that lost it cannot renew.
    expect(await renewJob(database.db, 'held-job', 'owner-a', now + LEASE_MS - 1)).toBe(true);
    expect(await claimJob(database.db, 'held-job', 'owner-b', now + LEASE_MS + 1)).toBe(false);
    // owner-a dies: after its last lease, owner-b takes the job over.
    expect(await claimJob(database.db, 'held-job', 'owner-b', now + 2 * LEASE_MS)).toBe(true);
    expect((await lease('held-job'))!.owner).toBe('owner-b');
    expect(await renewJob(database.db, 'held-job', 'owner-a', now + 2 * LEASE_MS)).toBe(false);
    // A late finish by the old owner changes nothing.
    await finishJob(database.db, 'held-job', 'owner-a', now + 2 * LEASE_MS, 0);
    expect((await lease('held-job'))!.owner).toBe('owner-b');
  });

  it('a finished job is not due again before its next run, unless asked for by hand', async () => {
    const now = T;
    expect(await claimJob(database.db, 'interval-job', 'owner-a', now)).toBe(true);
    await finishJob(database.db, 'interval-job', 'owner-a', now, now + 60_000);
    expect(await claimJob(database.db, 'interval-job', 'owner-b', now + 59_999)).toBe(false);
    expect(await claimJob(database.db, 'interval-job', 'owner-b', now + 1, { anyTime: true })).toBe(true);
    await finishJob(database.db, 'interval-job', 'owner-b', now + 1, now + 60_000);
    expect(await claimJob(database.db, 'interval-job', 'owner-a', now + 60_000)).toBe(true);
  });
});

describe('job runners', () => {
  const lease = (name: string) => t.deps.db.select().from(jobLeases).where(eq(jobLeases.name, name)).get();

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
