/**
 * Claims in the database for work that must happen once however many processes share the data folder (decision 025):
 * one SQL statement each (in what both engines share), so two processes never both win; the owner (one per running
 * app) renews its claim while it works, and a dead owner's claim runs out at `lease_until` and another process takes
 * the work over.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { and, eq, lte } from 'drizzle-orm';
import { jobLeases } from '#drizzle/tables.ts';
import { write, type Db } from '../db.ts';

/** How long a claim holds without renewal; the owner renews it every third of that while it works. */
export const LEASE_MS = 30_000;

/** A name for this running app, unique across processes and restarts: host, process id and a random part. */
export function newOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * Claims the job `name` for `owner` when nobody holds it (or its holder's lease ran out) and it is due; `anyTime`
 * ignores when it is next due (a run asked for by hand). True when the claim is this owner's.
 */
export async function claimJob(
  db: Db,
  name: string,
  owner: string,
  now: number,
  options: { leaseMs?: number; anyTime?: boolean } = {},
): Promise<boolean> {
  const dueBy = options.anyTime ? Number.MAX_SAFE_INTEGER : now;
  const leaseUntil = now + (options.leaseMs ?? LEASE_MS);
  const claimed = await write(db, (tx) =>
    tx
      .insert(jobLeases)
      .values({ name, owner, leaseUntil, nextRunAt: 0 })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { owner, leaseUntil },
        // Only a claim nobody holds (or whose holder's lease ran out), of a job that is due.
        setWhere: and(lte(jobLeases.leaseUntil, now), lte(jobLeases.nextRunAt, dueBy)),
      })
      .returning({ name: jobLeases.name }),
  );
  return claimed.length === 1;
}

/** Moves the owner's lease on; false when the claim is no longer this owner's (it ran out and was taken over). */
export async function renewJob(db: Db, name: string, owner: string, now: number, leaseMs = LEASE_MS): Promise<boolean> {
  const renewed = await write(db, (tx) =>
    tx
      .update(jobLeases)
      .set({ leaseUntil: now + leaseMs })
      .where(and(eq(jobLeases.name, name), eq(jobLeases.owner, owner)))
      .returning({ name: jobLeases.name }),
  );
  return renewed.length === 1;
}

/** Ends the owner's claim and sets when the job is next due. */
export async function finishJob(db: Db, name: string, owner: string, now: number, nextRunAt: number): Promise<void> {
  await write(db, (tx) =>
    tx
      .update(jobLeases)
      .set({ owner: null, leaseUntil: 0, lastRunAt: now, nextRunAt })
      .where(and(eq(jobLeases.name, name), eq(jobLeases.owner, owner))),
  );
}

/**
 * Calls `renew` every third of the lease until the returned function is called: the owner's claim keeps holding
 * while its work runs. A renewal that fails (the database busy) is tried again at the next tick.
 */
export function keepRenewing(renew: () => unknown, leaseMs = LEASE_MS): () => void {
  const renewQuietly = async () => {
    try {
      await renew();
    } catch {
      // The lease still holds for two more thirds: the next tick tries again.
    }
  };
  const timer = setInterval(() => void renewQuietly(), Math.max(10, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => clearInterval(timer);
}
