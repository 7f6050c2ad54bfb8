/**
 * The in-process job runner (DESIGN.md §8): each job runs on its own interval, never overlapping itself, and is
 * idempotent, so a restart simply picks up where the last run stopped.
 */
import type { ServiceContext } from './context.ts';

export interface Job {
  name: string;
  everyMs: number;
  run(ctx: ServiceContext): Promise<unknown> | unknown;
}

export interface JobRunner {
  stop(): Promise<void>;
  /** Runs every job once now (tests and start-up). */
  runAll(): Promise<void>;
}

export function startJobs(ctx: ServiceContext, jobs: readonly Job[]): JobRunner {
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];

  const runOnce = (job: Job): Promise<void> => {
    const current = running.get(job.name);
    if (current) return current;
    const work = (async () => {
      try {
        await job.run(ctx);
      } catch (error) {
        ctx.log.error({ err: error, job: job.name }, 'job failed');
      } finally {
        running.delete(job.name);
      }
    })();
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
      await Promise.all(jobs.map(runOnce));
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
