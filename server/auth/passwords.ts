/**
 * Password hashing with argon2id (decision 001), at the parameters OWASP recommends for interactive logins. Each
 * hash costs about 19 MB and tens of milliseconds of a core, so the work goes through one bounded queue
 * (work-queue.ts): a few at once, a limited number waiting, then busy (decision 024).
 */
import { hash, verify } from '@node-rs/argon2';
import { WorkQueue } from '../work-queue.ts';

/** Algorithm.Argon2id: the package's const enum cannot be imported under verbatimModuleSyntax. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes running at once (the machine's cores are shared with everything else), and hashes waiting their turn. */
export const PASSWORD_WORK_AT_ONCE = 2;
export const PASSWORD_WORK_WAITING = 32;

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
