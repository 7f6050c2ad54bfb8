/**
 * "Tell me when any square is available" also hears of the branch slots a publish opens: positions beside the new
 * piece in the branch area that have no cell until someone reserves one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { subscriptions } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt, setCellStatus } from '../helpers/server/reservation-fixtures.ts';
import { mailsOf, submitPieceAt } from '../helpers/server/review-fixtures.ts';

let t: TestApp;
let treeId: number;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Branches')).id;
});
afterAll(() => t.cleanup());

/** Opens a square for reserving (AVAILABLE), as trunk growth would have. */
const open = async (row: number, column: number) =>
  await setCellStatus(t.deps.db, treeId, row, column, CellStatus.Available);

describe('a publish beside the branch area', () => {
  it('tells the "any square" subscribers of a new branch slot, with a link centred on it, once', async () => {
    // The piece goes at row 10, column 0 (the trunk's first column); its trunk neighbours are open already, so the
    // only squares this publish opens are the three branch slots in column -1.
    for (const [row, column] of [
      [9, 0],
      [9, 1],
      [10, 0],
      [10, 1],
      [11, 0],
      [11, 1],
    ] as const)
      await open(row, column);
    const artist = (await t.addUser(Role.Artist)).user;
    const piece = await submitPieceAt(t, treeId, 10, 0, artist, 'Beside the Branches');

    const toAny = (await t.addUser(Role.Observer)).user;
    await t.caller(toAny).cell.subscribeAny();
    const toOther = (await t.addUser(Role.Observer)).user;
    const elsewhere = (await cellAt(t.deps.db, treeId, 20, 3))!;
    await t.caller(toOther).cell.subscribe({ token: elsewhere.token });

    const admin = (await t.addUser(Role.Admin)).user;
    const published = await t.caller(admin).admin.publish({ artToken: piece.artToken });
    expect(published.openedCellTokens).toEqual([]);

    const mails = await mailsOf(t);
    const told = mails.filter((mail) => mail.to.includes(toAny.email));
    expect(told).toHaveLength(1);
    // An "any square" alert names the first square that opened: here the top one of the three slots.
    expect(told[0]!.subject).toBe('A square is available on the Gallery Tree');
    expect(told[0]!.text).toContain(`${t.deps.config.siteUrl}/observe?row=9&col=-1\n`);
    // The subscription is used up; the one for a square that did not open is not.
    const openOf = async (userId: number) =>
      await t.deps.db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), isNull(subscriptions.notifiedAt)));
    expect(await openOf(toAny.id)).toEqual([]);
    expect(await openOf(toOther.id)).toHaveLength(1);
    expect(mails.filter((mail) => mail.to.includes(toOther.email))).toEqual([]);
  });

  it('tells nobody when a publish opens neither a square nor a slot', async () => {
    // Row 14, column 2 is the centre column, inside the trunk: no branch position touches it, and its trunk
    // neighbours are open already.
    for (const [row, column] of [
      [13, 1],
      [13, 2],
      [13, 3],
      [14, 1],
      [14, 2],
      [14, 3],
      [15, 1],
      [15, 2],
      [15, 3],
    ] as const)
      await open(row, column);
    const artist = (await t.addUser(Role.Artist)).user;
    const piece = await submitPieceAt(t, treeId, 14, 2, artist, 'In the Middle');
    const toAny = (await t.addUser(Role.Observer)).user;
    await t.caller(toAny).cell.subscribeAny();
    await t.caller((await t.addUser(Role.Admin)).user).admin.publish({ artToken: piece.artToken });
    expect((await mailsOf(t)).filter((mail) => mail.to.includes(toAny.email))).toEqual([]);
  });
});
