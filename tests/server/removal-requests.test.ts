/**
 * Removal requests through tRPC's createCaller on a real database: only a published piece can be asked to be taken
 * down; a draft, a piece waiting for review and one sent back for changes are refused with a clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { art, removalRequests } from '#drizzle/tables.ts';
import { ArtStatus, Role } from '#shared/domain.ts';
import { toAppError } from '#server/errors.ts';
import { NOT_PUBLISHED_MESSAGE } from '#server/services/art/removal-requests.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/art-fixtures.ts';
import { artRow, cellRow, submitPieceAt } from '../helpers/server/review-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeId: number;
let admin: Awaited<ReturnType<TestApp['addUser']>>;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Removals')).id;
  admin = await t.addUser(Role.Admin);
}, 60_000);
afterAll(() => t.cleanup());

const requestsOf = async (artToken: string) =>
  (
    await oneRow(
      t.deps.db
        .select({ n: count() })
        .from(removalRequests)
        .where(eq(removalRequests.artId, (await artRow(t.deps.db, artToken)).id)),
    )
  ).n;
const refusalOf = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (e: unknown) => toAppError(e).toBody(),
  );

describe('art.requestRemoval', () => {
  it('refuses a piece waiting for review, and stores nothing', async () => {
    const artist = await t.addUser(Role.Artist);
    const piece = await submitPieceAt(t, treeId, 33, 0, artist.user, 'Under Review');
    expect((await artRow(t.deps.db, piece.artToken)).status).toBe(ArtStatus.Submitted);
    const refusal = await refusalOf(
      t.caller(artist.user).art.requestRemoval({ cellToken: piece.cellToken, reason: 'Changed my mind.' }),
    );
    expect(refusal).toEqual({ error: 'conflict', message: NOT_PUBLISHED_MESSAGE });
    expect(await requestsOf(piece.artToken)).toBe(0);
  });

  it('refuses a piece sent back for changes, and a draft, and stores nothing', async () => {
    const artist = await t.addUser(Role.Artist);
    const sentBack = await submitPieceAt(t, treeId, 33, 2, artist.user, 'Sent Back');
    await t.caller(admin.user).admin.requestChanges({ artToken: sentBack.artToken, reason: 'Please add the frame.' });
    expect((await artRow(t.deps.db, sentBack.artToken)).status).toBe(ArtStatus.ChangesRequested);
    expect(
      await refusalOf(t.caller(artist.user).art.requestRemoval({ cellToken: sentBack.cellToken, reason: '' })),
    ).toEqual({
      error: 'conflict',
      message: NOT_PUBLISHED_MESSAGE,
    });
    expect(await requestsOf(sentBack.artToken)).toBe(0);

    // A fresh reservation holds an empty draft.
    const drafter = await t.addUser(Role.Observer);
    const square = await cellAt(t.deps.db, treeId, 33, 4);
    await reserveCell(t.deps, drafter.user, square.token);
    const draft = await oneRow(
      t.deps.db
        .select()
        .from(art)
        .where(eq(art.id, (await cellRow(t.deps.db, square.token)).artId!)),
    );
    expect(draft.status).toBe(ArtStatus.Draft);
    expect(
      (await refusalOf(t.caller(drafter.user).art.requestRemoval({ cellToken: square.token, reason: '' })))?.error,
    ).toBe('conflict');
    expect(await requestsOf(draft.token)).toBe(0);
  });

  it('tells someone else only that it is not theirs to ask, whatever the status', async () => {
    const artist = await t.addUser(Role.Artist);
    const piece = await submitPieceAt(t, treeId, 34, 0, artist.user, 'Not Yours');
    const stranger = await t.addUser(Role.Observer);
    expect(
      (await refusalOf(t.caller(stranger.user).art.requestRemoval({ cellToken: piece.cellToken, reason: '' })))?.error,
    ).toBe('forbidden');
  });

  it('accepts the author’s request once the piece is published', async () => {
    const artist = await t.addUser(Role.Artist);
    const piece = await submitPieceAt(t, treeId, 34, 2, artist.user, 'Now Live');
    await t.caller(admin.user).admin.publish({ artToken: piece.artToken });
    const answer = await t.caller(artist.user).art.requestRemoval({ cellToken: piece.cellToken, reason: 'I sold it.' });
    expect(answer).toMatchObject({ state: 'open', token: expect.any(String) });
    expect(await requestsOf(piece.artToken)).toBe(1);
  });
});
