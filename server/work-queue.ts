/**
 * A first-in first-out queue with a fixed number of places at work, for costly work that many requests may ask for
 * at once (password hashing, image decoding): a few run, a limited number wait in order, and beyond that the
 * request is refused (busy, with Retry-After) rather than piling up memory and making everyone wait (decision 024).
 */
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from './errors.ts';

export class WorkQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Pieces of work started so far (tests read it to see that a refused request did no work). */
  started = 0;
  /** The most that ever ran at once (tests read it). */
  mostAtOnce = 0;

  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
    private readonly retryAfterSeconds = 2,
  ) {}

  /** Runs `work` when a place is free; refuses (busy) when the waiting line is full, unless `alwaysWait`. */
  async run<T>(work: () => Promise<T>, alwaysWait = false): Promise<T> {
    if (this.running < this.atOnce) this.running++;
    else if (this.waiting.length >= this.maxWaiting && !alwaysWait) {
      throw new AppError(
        ErrorCode.Busy,
        'The gallery is very busy right now. Try again in a few seconds.',
        undefined,
        this.retryAfterSeconds,
      );
    }
    // The place is handed over by the one that finishes (below), so it never goes above atOnce.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.started++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
