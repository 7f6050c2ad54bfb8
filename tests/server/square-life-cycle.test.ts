/**
 * The life of a square and its piece, as random sequences of real transitions (reserve, reserve a branch slot,
 * subscribe, submit, publish, request changes, extend, release, expire, remove) through the services, with what must
 * hold after every step: one holder per square and one square per member, a published piece on its square and a
 * published square showing its piece, the change log bringing the last step's snapshot to the tree as it is, and each
 * subscription told at most once, in one e-mail per member and step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { art, cells, mailOutbox, reservations, subscriptions, trees } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { applyChanges } from '#shared/tree/changes.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { decodeBinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import { buildSnapshotBytesAwaited } from '#server/services/tree/snapshot-build.ts';
import { readChanges } from '#server/services/tree/tree-changes.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { runTransition, TRANSITIONS, type TransitionWorld } from '#tests/helpers/server/square-transitions.ts';
import { png } from '../helpers/art-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let world: TransitionWorld;

async function snapshotNow(): Promise<{ version: number; cells: TreeCells }> {
  const tree = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, world.tree.id)));
  const built = await buildSnapshotBytesAwaited(t.deps.db, tree, t.deps.media.urlOf);
  return { version: built.version, cells: decodeBinarySnapshot(built.body.identity).cells };
}

/** Every cell as one comparable line, in row-then-column order. */
function canonical(tree: TreeCells): string[] {
  const lines: [number, number, string][] = [];
  for (let i = 0; i < tree.count; i++) {
    lines.push([tree.row[i]!, tree.col[i]!, `${tree.status[i]} ${tree.type[i]} ${tree.color[i]} ${tree.token?.[i]}`]);
  }
  return lines.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([row, col, rest]) => `${row},${col} ${rest}`);
}

async function holders() {
  return await t.deps.db
    .select({ userId: reservations.userId, cellId: reservations.cellId, state: reservations.state })
    .from(reservations)
    .where(inArray(reservations.state, ['active', 'submitted']));
}

async function notified(): Promise<Map<number, number>> {
  const rows = await t.deps.db
    .select({ id: subscriptions.id, at: subscriptions.notifiedAt })
    .from(subscriptions)
    .where(isNotNull(subscriptions.notifiedAt));
  return new Map(rows.map((row) => [row.id, row.at!]));
}

const availabilityMails = async () =>
  await t.deps.db.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(eq(mailOutbox.kind, 'cell-available'));

/** Checks what must hold after a step; `before` is what the step started from. */
async function checkInvariants(before: {
  snapshot: Awaited<ReturnType<typeof snapshotNow>>;
  told: Map<number, number>;
  mails: number;
}) {
  const db = t.deps.db;
  // One holder per square, one held square (active) per member.
  const held = await holders();
  const cellsHeld = held.map((row) => row.cellId);
  expect(new Set(cellsHeld).size).toBe(cellsHeld.length);
  const active = held.filter((row) => row.state === 'active').map((row) => row.userId);
  expect(new Set(active).size).toBe(active.length);

  // A published piece is its square's piece, and a published square shows a published piece.
  const published = await db
    .select({ id: art.id, onSquare: cells.artId, cellStatus: cells.status })
    .from(art)
    .leftJoin(cells, eq(cells.id, art.cellId))
    .where(eq(art.status, ArtStatus.Published));
  for (const piece of published) expect(piece).toMatchObject({ onSquare: piece.id, cellStatus: CellStatus.Published });
  const publishedSquares = await db
    .select({ status: art.status })
    .from(cells)
    .leftJoin(art, eq(art.id, cells.artId))
    .where(and(eq(cells.treeId, world.tree.id), eq(cells.status, CellStatus.Published)));
  for (const square of publishedSquares) expect(square.status).toBe(ArtStatus.Published);

  // The change log brings the step's starting snapshot to the tree as it is now.
  const answer = await readChanges(db, world.tree.id, before.snapshot.version);
  if (answer.resync) throw new Error('the change log no longer reaches the last step');
  expect(canonical(applyChanges(before.snapshot.cells, answer).cells)).toEqual(canonical((await snapshotNow()).cells));

  // A subscription is told once: once told it stays told, and each member told in this step gets one e-mail.
  const told = await notified();
  for (const [id, at] of before.told) expect(told.get(id)).toBe(at);
  const newlyTold = [...told.keys()].filter((id) => !before.told.has(id));
  const members = new Set(
    (
      await db
        .select({ userId: subscriptions.userId })
        .from(subscriptions)
        .where(inArray(subscriptions.id, newlyTold.length ? newlyTold : [-1]))
    ).map((row) => row.userId),
  );
  const newMails = (await availabilityMails()).slice(before.mails);
  expect(newMails.length).toBe(members.size);
  expect(new Set(newMails.map((mail) => mail.to)).size).toBe(newMails.length);
}

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'Life');
  world = {
    t,
    tree,
    admin: (await t.addUser(Role.Admin)).user,
    members: await Promise.all(Array.from({ length: 5 }, async () => (await t.addUser(Role.Observer)).user)),
    picture: await png(48, 48, '#5522aa'),
  };
}, 60_000);
afterAll(() => t.cleanup());

describe('the life of a square', () => {
  it('keeps its rules after every step of any sequence of transitions', async () => {
    // A start that publishes something, so later steps have branch slots, pieces to remove and squares to free.
    for (const kind of ['reserve', 'submit', 'publish', 'reserveSlot', 'submit', 'publish'] as const)
      await runTransition(world, { kind, who: 0, pick: 1 });
    const transition = fc.record({ kind: fc.constantFrom(...TRANSITIONS), who: fc.nat(4), pick: fc.nat(1000) });
    await fc.assert(
      fc.asyncProperty(fc.array(transition, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const step of steps) {
          const before = {
            snapshot: await snapshotNow(),
            told: await notified(),
            mails: (await availabilityMails()).length,
          };
          await runTransition(world, step);
          await checkInvariants(before);
        }
      }),
      { numRuns: 15 },
    );
  });
});
