/**
 * The window of a piece sent back for changes (decision 019), on the manual clock: a fresh window, the clock stopped
 * by resubmitting, and a lapsed or released window that frees the square but keeps the piece in the atelier.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, inArray, not } from 'drizzle-orm';
import {
  cells,
  connections,
  mailOutbox,
  pictures,
  removalRequests,
  reservations,
  staffActions,
  trees,
} from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { storedFiles } from '#tests/helpers/server/media-files.ts';
import { expireReservations, sendReservationReminders } from '#server/services/reservations/reservation-jobs.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, postForm, publishedPieceAt, validFields } from '../helpers/art-fixtures.ts';
import { artRow, cellRow, mailsOf, searchIndexOf, submitPieceAt } from '../helpers/server/review-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const originalTz = process.env.TZ;

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['addUser']>>;

beforeAll(async () => {
  process.env.TZ = 'UTC';
  t = await createTestApp();
  // Real time, so the media sweep (which compares file ages with the clock) can tell kept files from orphans.
  t.clock.set(Date.now());
  admin = await t.addUser(Role.Admin);
}, 60_000);
// Each test counts the timers' work on its own reservations: earlier tests' holds are set aside.
beforeEach(async () => {
  await t.deps.db
    .update(reservations)
    .set({ state: 'released' })
    .where(inArray(reservations.state, ['active', 'submitted']));
});
afterAll(async () => {
  await t.cleanup();
  process.env.TZ = originalTz;
});

const reservationOn = async (cellId: number) =>
  await oneRow(t.deps.db.select().from(reservations).where(eq(reservations.cellId, cellId)));
const versionOf = async (treeId: number) =>
  (await oneRow(t.deps.db.select({ v: trees.version }).from(trees).where(eq(trees.id, treeId)))).v;
const picturesOf = async (artId: number) => await t.deps.db.select().from(pictures).where(eq(pictures.artId, artId));
const filesOf = async (mediaKey: string) =>
  (await storedFiles(t.deps.media)).filter((name) => name.startsWith(mediaKey));
const outboxOf = async (kind: string, to: string) =>
  (await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind))).filter((mail) => mail.toAddress === to);

let trees_ = 0;
/** A fresh tree with a published neighbour, and an artist whose piece next to it (connected) waits for review. */
async function submittedPiece() {
  const treeId = (await createTree(t.deps.db, t.clock.now(), `Changes ${trees_++}`)).id;
  const artist = await t.addUser(Role.Observer);
  const neighbour = await publishedPieceAt(
    t.deps.db,
    treeId,
    34,
    1,
    (await t.addUser(Role.Artist)).user.id,
    `neighbour${trees_}key`,
  );
  const piece = await submitPieceAt(t, treeId, 33, 0, artist.user, 'Lantern Harbour');
  const artId = (await artRow(t.deps.db, piece.artToken)).id;
  // A connection to the neighbour, as if already live, to show that a released piece's connections end.
  const now = t.clock.now();
  const nextCellId = (await cellRow(t.deps.db, neighbour.cellToken)).id;
  await t.deps.db.insert(connections).values({
    token: newToken(),
    artId,
    nextCellId,
    status: 1,
    description: 'The same harbour.',
    createdAt: now,
    updatedAt: now,
  });
  return { treeId, artist, piece, artId };
}

const reason = 'Please add a photo of the whole piece.';

describe('requesting changes', () => {
  it('puts the reservation back on the clock with a fresh 14-day window, reminders and extension anew, the deadline in the e-mail', async () => {
    const { artist, piece } = await submittedPiece();
    const submitted = await reservationOn(piece.cellId);
    expect(submitted.state).toBe('submitted');

    t.clock.advance(3 * DAY);
    const askedAt = t.clock.now();
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });

    const window = await reservationOn(piece.cellId);
    expect(window).toMatchObject({
      id: submitted.id,
      state: 'active',
      expiresAt: askedAt + 14 * DAY,
      reminderCount: 0,
      extended: false,
      updatedAt: askedAt,
    });
    expect(window.token).not.toBe(submitted.token);
    const mail = (await mailsOf(t)).find(
      (m) => m.to === artist.user.email && m.subject === 'Your piece needs a few changes',
    )!;
    expect(mail.text).toContain(`until ${formatDeadline(askedAt + 14 * DAY, 'UTC')}`);
    expect(mail.text).toContain('kept in your atelier');

    // Staff see it among the reservations, marked as a piece sent back; the artist holds it as their square.
    const listed = (await t.caller(admin.user).admin.reservations()).find((r) => r.id === window.id);
    expect(listed).toMatchObject({
      expiresAt: window.expiresAt,
      artStatus: ArtStatus.ChangesRequested,
      cell: { token: piece.cellToken },
    });
    expect(await t.caller(artist.user).user.reservedCell()).toMatchObject({
      token: piece.cellToken,
      expiresAt: window.expiresAt,
    });

    // The usual reminder, worded for changes, with the extend link of the new window; the extension works once.
    t.clock.set(window.expiresAt - 7 * DAY);
    expect(await sendReservationReminders(t.deps)).toBe(1);
    const [reminder] = await outboxOf('reservation-reminder', artist.user.email);
    expect(reminder!.dedupeKey).toBe(`reservation-reminder:${window.token}:1`);
    expect(reminder!.textBody).toContain('Submit your changes before then');
    expect(reminder!.textBody).toContain('your piece stays in your atelier');
    expect(reminder!.textBody).toContain(`/reserve/${window.token}/extend`);
    const extended = await t
      .caller(artist.user)
      .cell.extendReservation({ cellToken: piece.cellToken, reminderToken: window.token });
    expect(extended).toMatchObject({ extended: true });
    expect(extended.expiresAt).toBeGreaterThan(window.expiresAt);
  });

  it('stops the clock again on resubmission from the editor: no reminders, no expiry', async () => {
    const { artist, piece } = await submittedPiece();
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });
    const window = await reservationOn(piece.cellId);

    const editor = await t.caller(artist.user).art.forEdit({ cellToken: piece.cellToken });
    const browser = await browserFor(t, artist.cookie);
    const kept = editor.art!.pictures.map((p) => p.token);
    const resubmitted = await postForm(
      t,
      browser,
      `/api/cell/${piece.cellToken}`,
      artForm(validFields({ submit: '1', title: 'Lantern Harbour' }), [], kept),
    );
    expect(resubmitted.body.r.art).toMatchObject({ status: ArtStatus.Submitted });
    expect((await reservationOn(piece.cellId)).state).toBe('submitted');

    t.clock.set(window.expiresAt - 3 * DAY);
    expect(await sendReservationReminders(t.deps)).toBe(0);
    t.clock.set(window.expiresAt + 30 * DAY);
    expect(await expireReservations(t.deps)).toBe(0);
    expect((await artRow(t.deps.db, piece.artToken)).status).toBe(ArtStatus.Submitted);
    expect(await cellRow(t.deps.db, piece.cellToken)).toMatchObject({ status: CellStatus.Reserved });
    expect((await t.caller(admin.user).admin.reservations()).map((r) => r.id)).not.toContain(window.id);
  });
});

describe('a window that runs out', () => {
  it('frees the square for its subscribers but keeps the piece, REMOVED with its pictures and files, in the atelier', async () => {
    const { treeId, artist, piece, artId } = await submittedPiece();
    const subscriber = await t.addUser(Role.Observer);
    await t.caller(subscriber.user).cell.subscribe({ token: piece.cellToken });
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });
    const window = await reservationOn(piece.cellId);
    const [picture] = await picturesOf(artId);
    expect((await filesOf(picture!.mediaKey)).length).toBeGreaterThan(0);

    // An untouched draft on another square runs out at the same time, to show it is still discarded.
    const drafter = await t.addUser(Role.Observer);
    const draftSquare = await reserveCell(t.deps, drafter.user, await nextSquare(treeId));

    t.clock.set(window.expiresAt - 1);
    expect(await expireReservations(t.deps)).toBe(0);
    const versionBefore = await versionOf(treeId);
    t.clock.set(Math.max(window.expiresAt, draftSquare.expiresAt));
    expect(await expireReservations(t.deps)).toBe(2);
    expect(await expireReservations(t.deps)).toBe(0);

    expect((await reservationOn(piece.cellId)).state).toBe('expired');
    expect(await cellRow(t.deps.db, piece.cellToken)).toMatchObject({ status: CellStatus.Available, artId: null });
    expect(await versionOf(treeId)).toBeGreaterThan(versionBefore);
    expect(await artRow(t.deps.db, piece.artToken)).toMatchObject({
      status: ArtStatus.Removed,
      title: 'Lantern Harbour',
      reviewNote: reason,
    });
    expect(await picturesOf(artId)).toEqual([picture]);
    expect(
      await t.deps.db.select({ status: connections.status }).from(connections).where(eq(connections.artId, artId)),
    ).toEqual([{ status: 0 }]);
    expect(await searchIndexOf(t.deps.db, artId)).toEqual([]);
    expect(await artRow(t.deps.db, draftSquare.art.token)).toBeUndefined();

    // The media sweep, which takes files no picture names, leaves the kept piece's files alone, however old.
    await sweepOrphanMedia({ ...t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS + HOUR } });
    expect((await filesOf(picture!.mediaKey)).length).toBeGreaterThan(0);

    const told = await outboxOf('reservation-expired-kept', artist.user.email);
    expect(told).toHaveLength(1);
    expect(told[0]!.textBody).toContain('kept in your atelier');
    expect(told[0]!.textBody).toContain('/profile?tab=atelier');
    expect(await outboxOf('cell-available', subscriber.user.email)).toHaveLength(1);
    expect(await outboxOf('reservation-expired-kept', drafter.user.email)).toEqual([]);

    const atelier = await t.caller(artist.user).user.art({ token: artist.user.token });
    expect(atelier).toMatchObject([
      { artToken: piece.artToken, status: ArtStatus.Removed, cellStatus: CellStatus.Available, reservedUntil: null },
    ]);
    // The artist holds nothing now and may reserve again; the square is anyone's.
    expect(await t.caller(artist.user).user.reservedCell()).toBeNull();
    await expect(t.caller(subscriber.user).cell.reserve({ token: piece.cellToken })).resolves.toMatchObject({
      token: piece.cellToken,
    });
  });

  it('runs even when the artist held another square when changes were asked: the hold stays submitted but timed', async () => {
    const { treeId, artist, piece, artId } = await submittedPiece();
    const other = await reserveCell(t.deps, artist.user, await nextSquare(treeId));
    const otherBefore = await reservationOn((await cellRow(t.deps.db, other.token)).id);
    t.clock.advance(DAY);
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });
    const window = await reservationOn(piece.cellId);
    expect(window).toMatchObject({ state: 'submitted', expiresAt: t.clock.now() + 14 * DAY, reminderCount: 0 });
    expect((await t.caller(admin.user).admin.reservations()).find((r) => r.id === window.id)).toMatchObject({
      artStatus: ArtStatus.ChangesRequested,
    });
    // The square the artist holds meanwhile keeps its own window, and stays their held square.
    expect(await reservationOn(otherBefore.cellId)).toEqual(otherBefore);
    expect(await t.caller(artist.user).user.reservedCell()).toMatchObject({ token: other.token });

    t.clock.set(window.expiresAt - 1);
    expect(await expireReservations(t.deps)).toBe(1); // the other square's draft, a day earlier
    expect((await artRow(t.deps.db, piece.artToken)).status).toBe(ArtStatus.ChangesRequested);
    t.clock.set(window.expiresAt);
    expect(await expireReservations(t.deps)).toBe(1);
    expect((await artRow(t.deps.db, piece.artToken)).status).toBe(ArtStatus.Removed);
    expect(await picturesOf(artId)).toHaveLength(1);
    expect(await cellRow(t.deps.db, piece.cellToken)).toMatchObject({ status: CellStatus.Available, artId: null });
    expect(await outboxOf('reservation-expired-kept', artist.user.email)).toHaveLength(1);
  });
});

describe('staff releasing a reservation', () => {
  it('keeps a piece sent back for changes, REMOVED and off the square, and tells the artist so', async () => {
    const { treeId, artist, piece, artId } = await submittedPiece();
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });
    const window = await reservationOn(piece.cellId);
    const versionBefore = await versionOf(treeId);

    await t.caller(admin.user).admin.releaseReservation({ reservationId: window.id });
    expect((await reservationOn(piece.cellId)).state).toBe('released');
    expect(await cellRow(t.deps.db, piece.cellToken)).toMatchObject({ status: CellStatus.Available, artId: null });
    expect(await versionOf(treeId)).toBe(versionBefore + 1);
    expect((await artRow(t.deps.db, piece.artToken)).status).toBe(ArtStatus.Removed);
    expect(await picturesOf(artId)).toHaveLength(1);
    const mail = await outboxOf('reservation-released', artist.user.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.textBody).toContain('your piece stays in your atelier');
    expect(
      await t.deps.db.select().from(staffActions).where(eq(staffActions.subjectToken, piece.cellToken)),
    ).toMatchObject([{ action: 'release_reservation' }]);
    expect((await t.caller(artist.user).user.art({ token: artist.user.token })).map((item) => item.artToken)).toEqual([
      piece.artToken,
    ]);
  });

  it("leaves out of the atelier a piece sent back for changes that was then taken down at its artist's request", async () => {
    const { artist, piece } = await submittedPiece();
    await t.caller(admin.user).admin.requestChanges({ artToken: piece.artToken, reason });
    // The artist may no longer ask about a piece that is not published; a request stored before that rule still counts.
    await expect(
      t.caller(artist.user).art.requestRemoval({ cellToken: piece.cellToken, reason: '' }),
    ).rejects.toMatchObject({ cause: { code: 'conflict' } });
    const request = { token: newToken() };
    await t.deps.db.insert(removalRequests).values({
      ...request,
      artId: (await artRow(t.deps.db, piece.artToken)).id,
      requesterId: artist.user.id,
      email: artist.user.email,
      reason: 'I would rather not show it.',
      state: 'open',
      createdAt: t.clock.now(),
    });
    await t.caller(admin.user).admin.acceptRemoval({ token: request.token });
    expect(await artRow(t.deps.db, piece.artToken)).toMatchObject({ status: ArtStatus.Removed, reviewNote: reason });
    expect(await t.caller(artist.user).user.art({ token: artist.user.token })).toEqual([]);
  });

  it('still discards an untouched draft', async () => {
    const treeId = (await createTree(t.deps.db, t.clock.now(), `Changes ${trees_++}`)).id;
    const drafter = await t.addUser(Role.Observer);
    const held = await reserveCell(t.deps, drafter.user, await nextSquare(treeId));
    const reservation = await reservationOn((await cellRow(t.deps.db, held.token)).id);
    await t.caller(admin.user).admin.releaseReservation({ reservationId: reservation.id });
    expect(await artRow(t.deps.db, held.art.token)).toBeUndefined();
    expect((await outboxOf('reservation-released', drafter.user.email))[0]!.textBody).toContain(
      'your draft is discarded',
    );
    expect(await t.caller(drafter.user).user.art({ token: drafter.user.token })).toEqual([]);
  });
});

/** The token of an AVAILABLE square of the tree other than (33, 0). */
async function nextSquare(treeId: number): Promise<string> {
  const square = await oneRow(
    t.deps.db
      .select({ token: cells.token })
      .from(cells)
      .where(
        and(
          eq(cells.treeId, treeId),
          eq(cells.status, CellStatus.Available),
          not(and(eq(cells.row, 33), eq(cells.column, 0))!),
        ),
      )
      .orderBy(desc(cells.row), asc(cells.column)),
  );
  return square.token;
}
