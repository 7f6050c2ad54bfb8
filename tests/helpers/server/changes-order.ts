/**
 * Is the change log read in commit order? Writers record changes to a tree's squares at the same time while a viewer
 * follows `/changes` from a version, as a page does; afterwards every logged change must lie in exactly one of the
 * answers the viewer got, naming its square (none missed: a change with a smaller number that committed after the
 * viewer had passed it; none twice: answers that overlap). Used by tests/server/engines-changes-order.test.ts and
 * the engines benchmark.
 */
import { and, eq, gt } from 'drizzle-orm';
import { cells, treeChanges, trees } from '#drizzle/tables.ts';
import { write, type Db, type Queryable } from '#server/db.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import type { TreeChangesAnswer } from '#shared/tree/changes.ts';

/** One answer the viewer got: the versions it spans and the squares it names. */
interface Window {
  since: number;
  version: number;
  cells: Set<string>;
}

/** What the log holds after the start, checked against the viewer's answers. */
export interface Verdict {
  logged: number;
  /** Changes whose square the answer spanning their number did not name. */
  missed: number;
  /** Answers that did not start where the one before ended (a version seen twice, or skipped). */
  broken: number;
  /** Answers that were not changes (a resync, an error), with the first few's text. */
  odd: number;
  oddSample: string[];
  lastVersion: number;
  treeVersion: number;
}

/** Asks /changes since a version; `asked` counts the questions (for a fresh address each, past the rate limit). */
export type AskChanges = (since: number, asked: number) => Promise<{ status: number; body: string }>;

/** Runs one write transaction: the app's `write`, or something else to compare with. */
export type RunWrite = (db: Db, work: (tx: Queryable) => Promise<void>) => Promise<void>;

export const throughWrite: RunWrite = async (db, work) => {
  await write(db, work);
};

export interface OrderRun {
  db: Db;
  treeId: number;
  /** The squares the writers change, in turn. */
  squareIds: readonly number[];
  writers: number;
  changesEach: number;
  ask: AskChanges;
  runWrite?: RunWrite;
}

async function versionOf(db: Db, treeId: number): Promise<number> {
  const [row] = await db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
  return row!.version;
}

/** Each writer records one change a transaction, cycling through its own share of the squares. */
async function writeChanges({ db, treeId, squareIds, writers, changesEach, runWrite = throughWrite }: OrderRun) {
  const now = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let k = 0; k < changesEach; k++) {
        const squareId = squareIds[(k * writers + writer) % squareIds.length]!;
        await runWrite(db, async (tx) => {
          await recordCellChanges(tx, treeId, [squareId], now);
        });
        // Each change its own request, as in the app: other requests are served in between.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
}

/** Follows /changes from `since` until `done()` and the tree's version is reached. */
async function follow(run: OrderRun, since: number, done: () => boolean) {
  const windows: Window[] = [];
  const odd: string[] = [];
  for (let asked = 0; ; asked++) {
    const finished = done();
    const { status, body } = await run.ask(since, asked);
    const answer = status === 200 ? (JSON.parse(body) as { r: TreeChangesAnswer }).r : null;
    if (!answer || answer.resync) odd.push(`${status} ${body.slice(0, 200)}`);
    else if (answer.version !== since) {
      windows.push({ since: answer.since, version: answer.version, cells: new Set(answer.cell) });
      since = answer.version;
    }
    if (finished && since === (await versionOf(run.db, run.treeId))) break;
    if (odd.length > 20) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { windows, odd };
}

/** Writes and follows at the same time, then checks every logged change against the answers. */
export async function checkChangesOrder(run: OrderRun): Promise<Verdict> {
  const { db, treeId } = run;
  const from = await versionOf(db, treeId);
  let writing = true;
  const followed = follow(run, from, () => !writing);
  await writeChanges(run).finally(() => (writing = false));
  const { windows, odd } = await followed;
  const logged = await db
    .select({ seq: treeChanges.seq, token: cells.token })
    .from(treeChanges)
    .innerJoin(cells, eq(cells.id, treeChanges.cellId))
    .where(and(eq(treeChanges.treeId, treeId), gt(treeChanges.seq, from)))
    .orderBy(treeChanges.seq);
  let broken = 0;
  let end = from;
  for (const window of windows) {
    if (window.since !== end || window.version <= window.since) broken++;
    end = window.version;
  }
  let missed = 0;
  let w = 0;
  for (const { seq, token } of logged) {
    while (w < windows.length && windows[w]!.version < seq) w++;
    const window = windows[w];
    if (!window || window.since >= seq || !window.cells.has(token)) missed++;
  }
  return {
    logged: logged.length,
    missed,
    broken,
    odd: odd.length,
    oddSample: odd.slice(0, 3),
    lastVersion: end,
    treeVersion: await versionOf(db, treeId),
  };
}
