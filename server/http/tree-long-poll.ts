/**
 * The held long-polls of GET /api/tree/{treeToken}/changes?since=&wait= (decision 033). A poll whose tree has nothing
 * after `since` waits here until the event feed (tree-events.ts), which already reads the change log every WATCH_MS
 * for every process's commits, finds the tree moved; or until its wait runs out, the reader leaves or the server
 * stops. Polls of one tree at one version are answered together, from one read of the changes.
 */
import { ErrorCode } from '#shared/errors.ts';
import { CHANGES_WAIT_MAX_SECONDS, type TreeChangesAnswer } from '#shared/tree/changes.ts';
import { AppError } from '../errors.ts';

/** The longest a poll may ask to be held (shared/tree/changes.ts: the page asks for all of it). */
export const WAIT_MAX_SECONDS = CHANGES_WAIT_MAX_SECONDS;
/** What a poll refused for lack of room is told to wait, in seconds: held polls end within WAIT_MAX_SECONDS. */
export const FULL_RETRY_SECONDS = 5;

/** A `wait` as the address gives it: whole seconds from 1 to WAIT_MAX_SECONDS, or a 400 that says what is wrong. */
export function parseWait(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > WAIT_MAX_SECONDS) {
    throw new AppError(ErrorCode.BadRequest, `wait must be a whole number of seconds from 1 to ${WAIT_MAX_SECONDS}.`, {
      wait: [`Expected a whole number from 1 to ${WAIT_MAX_SECONDS}.`],
    });
  }
  return Number(raw);
}

interface Waiter {
  /** Settles the poll: the changes read for its group, or null (it reads them itself). */
  settle: (answer: TreeChangesAnswer | null) => void;
}

export class TreeLongPolls {
  /** Waiters by tree, then by the version they wait after. */
  private readonly trees = new Map<number, Map<number, Set<Waiter>>>();
  private held = 0;
  private closed = false;

  constructor(private readonly max: number) {}

  /** How many polls are held now. */
  get size(): number {
    return this.held;
  }

  /**
   * Holds a poll of `treeId` after version `since` for at most `ms`. Resolves with the changes when the feed finds
   * the tree moved, or null when the wait ran out, `signal` aborted (the reader left) or the server is stopping: the
   * caller then reads the log itself, which also catches a commit made since the feed's last look. Throws `busy`
   * when this process holds as many polls as it takes.
   */
  hold(treeId: number, since: number, ms: number, signal: AbortSignal): Promise<TreeChangesAnswer | null> {
    if (this.closed || signal.aborted) return Promise.resolve(null);
    if (this.held >= this.max) {
      throw new AppError(
        ErrorCode.Busy,
        'The server is following as many live trees as it can. Try again in a moment.',
        undefined,
        FULL_RETRY_SECONDS,
      );
    }
    let versions = this.trees.get(treeId);
    if (!versions) this.trees.set(treeId, (versions = new Map<number, Set<Waiter>>()));
    let group = versions.get(since);
    if (!group) versions.set(since, (group = new Set<Waiter>()));
    const waiters = group;
    this.held++;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        settle: (answer) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', leave);
          if (waiters.delete(waiter)) {
            this.held--;
            if (waiters.size === 0 && versions.get(since) === waiters) versions.delete(since);
            if (versions.size === 0 && this.trees.get(treeId) === versions) this.trees.delete(treeId);
          }
          resolve(answer);
        },
      };
      const leave = () => waiter.settle(null);
      const timer = setTimeout(leave, ms);
      signal.addEventListener('abort', leave, { once: true });
      waiters.add(waiter);
    });
  }

  /** The versions of `treeId` that polls wait after and that `version` has passed (the feed reads each once). */
  behind(treeId: number, version: number): number[] {
    const versions = this.trees.get(treeId);
    return versions ? [...versions.keys()].filter((since) => since < version) : [];
  }

  /** Answers every poll of `treeId` waiting after `since` (null: each reads the changes itself). */
  answer(treeId: number, since: number, answer: TreeChangesAnswer | null): void {
    const group = this.trees.get(treeId)?.get(since);
    if (group) for (const waiter of [...group]) waiter.settle(answer);
  }

  /** Lets every held poll go at once (at shutdown): each answers what the log holds now. */
  close(): void {
    this.closed = true;
    for (const versions of [...this.trees.values()]) {
      for (const group of [...versions.values()]) for (const waiter of [...group]) waiter.settle(null);
    }
  }
}
