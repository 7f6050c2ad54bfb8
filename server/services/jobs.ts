/**
 * The in-process job runner (docs/architecture.md, Background jobs and mail; decision 025): each job runs on its own
 * interval, never overlapping itself, idempotent, and claimed in the database first (leases.ts), so one process runs
 * it at a time, and one that dies mid-run leaves it to another once its lease has run out.
 */
import type { ServiceContext } from './context.ts';
import { claimJob, finishJob, keepRenewing, LEASE_MS, newOwnerId, renewJob } from './leases.ts';

/** Who runs a job now, for work inside it that claims more (the outbox claims each message). */
export interface JobClaim {
  owner: string;
  leaseMs: number;
  /** True once the runner is stopping: a long job ends after its current step and leaves the rest. */
  stopping?: () => boolean;
}

export interface Job {
  name: string;
  everyMs: number;
  run: (ctx: ServiceContext, claim: JobClaim) => unknown;
}

export interface JobRunner {
  stop: () => Promise<void>;
  /** Runs every job once now, due or not, unless another process is running it (tests and start-up). */
  runAll: () => Promise<void>;
}

export function startJobs(
  ctx: ServiceContext,
  jobs: readonly Job[],
  claim: JobClaim = { owner: newOwnerId(), leaseMs: LEASE_MS },
): JobRunner {
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  let stopping = false;
  const { owner, leaseMs } = claim;
  const claimOfRun: JobClaim = { owner, leaseMs, stopping: () => stopping };

  const claimed = async (job: Job, now: number, anyTime: boolean): Promise<boolean> => {
    try {
      return await claimJob(ctx.db, job.name, owner, now, { leaseMs, anyTime });
    } catch (error) {
      // The database busy for longer than its timeout: this tick is skipped, the next one tries again.
      ctx.log.warn({ err: error, job: job.name }, 'job not claimed');
      return false;
    }
  };

  const runOnce = (job: Job, anyTime = false): Promise<void> => {
    const current = running.get(job.name);
    if (current) return current;
    if (stopping) return Promise.resolve();
    const work = (async () => {
      const claimedAt = ctx.clock.now();
      if (!(await claimed(job, claimedAt, anyTime))) return;
      const stopRenewing = keepRenewing(() => renewJob(ctx.db, job.name, owner, ctx.clock.now(), leaseMs), leaseMs);
      try {
        await job.run(ctx, claimOfRun);
      } catch (error) {
        ctx.log.error({ err: error, job: job.name }, 'job failed');
      } finally {
        stopRenewing();
        try {
          // Due again a little before this process's next tick, so that its timer never finds it not yet due.
          await finishJob(ctx.db, job.name, owner, ctx.clock.now(), claimedAt + Math.floor(job.everyMs * 0.9));
        } catch (error) {
          // The claim then runs out by itself, and the job is due again at once.
          ctx.log.warn({ err: error, job: job.name }, 'job claim not released');
        }
      }
    })().finally(() => running.delete(job.name));
    running.set(job.name, work);
    return work;
  };

  for (const job of jobs) {
    const timer = setInterval(() => void runOnce(job), job.everyMs);
    timer.unref();
    timers.push(timer);
  }

  return {
    async runAll() {
      await Promise.all(jobs.map((job) => runOnce(job, true)));
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
