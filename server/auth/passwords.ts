/**
 * Password hashing with argon2id (DESIGN.md §5), at the parameters OWASP recommends for interactive logins. Each
 * hash costs about 19 MB and tens of milliseconds of a core, so the work goes through one bounded queue: a few at
 * once, a limited number waiting in order, and beyond that a refusal (busy, with Retry-After) rather than a pile-up
 * that makes every login wait (decision 024).
 */
import { hash, verify } from '@node-rs/argon2';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../errors.ts';

/** Algorithm.Argon2id: the package's const enum cannot be imported under verbatimModuleSyntax. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes running at once (the machine's cores are shared with everything else), and hashes waiting their turn. */
export const PASSWORD_WORK_AT_ONCE = 2;
export const PASSWORD_WORK_WAITING = 32;

/** A first-in first-out queue with a fixed number of places at work. */
export class WorkQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Pieces of work started so far (tests read it to see that a refused request did no hashing). */
  started = 0;

  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
  ) {}

  /** Runs `work` when a place is free; refuses (busy) when the waiting line is full, unless `alwaysWait`. */
  async run<T>(work: () => Promise<T>, alwaysWait = false): Promise<T> {
    if (this.running < this.atOnce) this.running++;
    else if (this.waiting.length >= this.maxWaiting && !alwaysWait) throw new AppError(ErrorCode.Busy, 'The gallery is very busy right now. Try again in a few seconds.', undefined, 2);
    // The place is handed over by the one that finishes (below), so it never goes above atOnce.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.started++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export const passwordWork = new WorkQueue(PASSWORD_WORK_AT_ONCE, PASSWORD_WORK_WAITING);

/** `offline`: the seed and the admin command, which hash many at once and have nobody to refuse: they wait. */
export function hashPassword(password: string, offline = false): Promise<string> {
  return passwordWork.run(() => hash(password, OPTIONS), offline);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return passwordWork.run(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}
