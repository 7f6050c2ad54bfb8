/**
 * Staff review through tRPC's createCaller and real HTTP: the queue, one piece in full, publishing and
 * requesting changes; every bad input of the issue gets its error and changes nothing. The race of two staff
 * publishing at once is in review-race.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { connections, staffActions, trees, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { toAppError } from '#server/errors.ts';
import { saveConnections } from '#server/services/art/connections.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, cellAt, postForm, publishedPieceAt, validFields } from '../helpers/art-fixtures.ts';
import { adminStateOf, artRow, cellRow, mailsOf, submitPieceAt } from '../helpers/server/review-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeId: number;
let admin: Awaited<ReturnType<TestApp['addUser']>>;
let artist: Awaited<ReturnType<TestApp['addUser']>>;
let subscriber: Awaited<ReturnType<TestApp['addUser']>>;
let secondAuthor: Awaited<ReturnType<TestApp['addUser']>>;
let first: Awaited<ReturnType<typeof submitPieceAt>>;
let second: Awaited<ReturnType<typeof submitPieceAt>>;
let neighbour: { cellToken: string; artToken: string };

/** The app's error code of a refused call. */
const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'allowed',
    (e: unknown) => toAppError(e).code,
  );
const versionOf = async () =>
  (await oneRow(t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId)))).version;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Review')).id;
  admin = await t.addUser(Role.Admin);
  artist = await t.addUser(Role.Observer);
  subscriber = await t.addUser(Role.Observer);
  // The artist's earlier piece next to the square of the first submission, for its connection and "other pieces".
  neighbour = await publishedPieceAt(t.deps.db, treeId, 34, 1, artist.user.id, 'neighbourkey');
  first = await submitPieceAt(t, treeId, 33, 0, artist.user, 'Lantern Harbour');
  await saveConnections(t.deps, artist.user, first.cellToken, {
    connections: [{ token: neighbour.cellToken, status: 1, description: 'The same harbour at night.' }],
  });
  t.clock.advance(60_000);
  secondAuthor = await t.addUser(Role.Observer);
  second = await submitPieceAt(t, treeId, 33, 4, secondAuthor.user, 'Second Light');
}, 60_000);
afterAll(() => t.cleanup());

describe('the review queue', () => {
  it('lists the submitted pieces, the longest waiting first, with author and thumbnail', async () => {
    const queue = await t.caller(admin.user).admin.queue();
    expect(queue.map((item) => item.artToken)).toEqual([first.artToken, second.artToken]);
    expect(queue[0]).toMatchObject({
      cellToken: first.cellToken,
      title: 'Lantern Harbour',
      author: { token: artist.user.token, name: `${artist.user.firstname} ${artist.user.lastname}` },
    });
    expect(queue[0]!.thumb).toMatch(/^\/media\/.+-thumb\.webp$/);
    expect(queue[0]!.submittedAt).toBeLessThan(queue[1]!.submittedAt);
  });

  it('shows one piece in full: images, fields, AI use, connections, square and the artist with their other pieces', async () => {
    const item = await t.caller(admin.user).admin.reviewItem({ artToken: first.artToken });
    expect(item.art).toMatchObject({
      token: first.artToken,
      status: ArtStatus.Submitted,
      title: 'Lantern Harbour',
      ai_use: 'none',
      medium: ['Oil'],
      keywords: ['dusk', 'river'],
    });
    expect(item.pictures).toHaveLength(1);
    expect(item.pictures[0]).toMatchObject({ width: 64, height: 48 });
    expect(item.pictures[0]!.image).toMatch(/-large\.webp$/);
    expect(item.connections).toEqual([
      {
        cellToken: neighbour.cellToken,
        row: 34,
        column: 1,
        description: 'The same harbour at night.',
        status: 1,
        neighbour: {
          artToken: neighbour.artToken,
          title: 'Neighbour 34/1',
          thumb: '/media/neighbourkey-thumb.webp',
          author: expect.objectContaining({ token: artist.user.token }),
        },
      },
    ]);
    expect(item.cell).toMatchObject({
      token: first.cellToken,
      row: 33,
      column: 0,
      type: CellType.Trunk,
      status: CellStatus.Reserved,
    });
    expect(item.artist).toMatchObject({ token: artist.user.token, email: artist.user.email, role: Role.Artist });
    expect(item.otherPieces).toEqual([
      {
        artToken: neighbour.artToken,
        cellToken: neighbour.cellToken,
        title: 'Neighbour 34/1',
        status: ArtStatus.Published,
        thumb: '/media/neighbourkey-thumb.webp',
      },
    ]);
    expect(await codeOf(t.caller(admin.user).admin.reviewItem({ artToken: 'n'.repeat(22) }))).toBe('art_not_found');
  });
});

describe('publishing', () => {
  it('refuses what is not SUBMITTED, an unknown piece and anyone but staff, changing nothing', async () => {
    const drafter = await t.addUser(Role.Observer);
    const draftCell = await cellAt(t.deps.db, treeId, 34, 3);
    await reserveCell(t.deps, drafter.user, draftCell.token);
    const draftToken = (await t.caller(drafter.user).art.forEdit({ cellToken: draftCell.token })).art!.token;
    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(t.caller(admin.user).admin.publish({ artToken: draftToken }))).toBe('art_not_submitted');
    expect(await codeOf(t.caller(admin.user).admin.publish({ artToken: neighbour.artToken }))).toBe(
      'art_not_submitted',
    );
    expect(await codeOf(t.caller(admin.user).admin.publish({ artToken: 'n'.repeat(22) }))).toBe('art_not_found');
    expect(await codeOf(t.caller(artist.user).admin.publish({ artToken: first.artToken }))).toBe('forbidden');
    expect(await codeOf(t.caller().admin.publish({ artToken: first.artToken }))).toBe('unauthenticated');
    // Over HTTP as the browser would send it: the artist is refused with 403 and the app's code.
    const browser = await browserFor(t, artist.cookie);
    const refused = await browser.post('/trpc/admin.publish', { artToken: first.artToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.app.error).toBe('forbidden');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });

  it('publishes in one go: the piece live, the trunk grown, search, the e-mails and the staff log', async () => {
    // The subscriber waits for a PENDING square next to the piece; the artist is an observer again to see the promotion.
    const waitedFor = await cellAt(t.deps.db, treeId, 32, 1);
    await t.caller(subscriber.user).cell.subscribe({ token: waitedFor.token });
    await t.deps.db.update(users).set({ role: Role.Observer }).where(eq(users.id, artist.user.id));
    const pendingAround = [await cellAt(t.deps.db, treeId, 32, 0), waitedFor];
    expect(pendingAround.map((c) => c.status)).toEqual([CellStatus.Pending, CellStatus.Pending]);
    const version = await versionOf();
    const mailsBefore = (await mailsOf(t)).length;

    const browser = await browserFor(t, admin.cookie);
    const res = await browser.post('/trpc/admin.publish', { artToken: first.artToken });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({
      artToken: first.artToken,
      cellToken: first.cellToken,
      openedCellTokens: pendingAround.map((c) => c.token),
    });

    expect(await artRow(t.deps.db, first.artToken)).toMatchObject({
      status: ArtStatus.Published,
      publishedAt: t.clock.now(),
    });
    expect((await cellRow(t.deps.db, first.cellToken)).status).toBe(CellStatus.Published);
    for (const cell of pendingAround) expect((await cellRow(t.deps.db, cell.token)).status).toBe(CellStatus.Available);
    expect(
      await t.deps.db
        .select({ status: connections.status })
        .from(connections)
        .where(eq(connections.nextCellId, (await cellRow(t.deps.db, neighbour.cellToken)).id)),
    ).toEqual([{ status: 1 }]);
    expect(await versionOf()).toBeGreaterThan(version);
    expect(
      (await oneRow(t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, artist.user.id)))).role,
    ).toBe(Role.Artist);
    const hits = await t.caller().cell.search({ search: 'Lantern' });
    expect(hits.map((hit) => hit.artToken)).toContain(first.artToken);
    expect((await t.caller(admin.user).admin.queue()).map((item) => item.artToken)).toEqual([second.artToken]);

    const mails = (await mailsOf(t)).slice(mailsBefore);
    const live = mails.find((mail) => mail.to === artist.user.email);
    expect(live?.subject).toBe('Your piece is live on the Gallery Tree');
    expect(live?.text).toContain(`/observe/cell/${first.cellToken}/details`);
    const told = mails.find((mail) => mail.to === subscriber.user.email);
    expect(told?.subject).toBe('A square is available on the Gallery Tree');
    expect(told?.text).toContain(`/observe?cell=${waitedFor.token}`);

    const log = await t.deps.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.action, 'publish'), eq(staffActions.subjectToken, first.artToken)));
    expect(log).toHaveLength(1);
    expect(log[0]!.staffId).toBe(admin.user.id);
  });

  it('refuses publishing the same piece again and changes nothing', async () => {
    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(t.caller(admin.user).admin.publish({ artToken: first.artToken }))).toBe('art_not_submitted');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });
});

describe('requesting changes', () => {
  it('refuses a missing, blank or too long reason and changes nothing', async () => {
    const before = await adminStateOf(t.deps.db);
    for (const reason of ['', '   ', 'x'.repeat(4096)]) {
      expect(await codeOf(t.caller(admin.user).admin.requestChanges({ artToken: second.artToken, reason }))).toBe(
        'validation_failed',
      );
    }
    const browser = await browserFor(t, admin.cookie);
    const missing = await browser.post('/trpc/admin.requestChanges', { artToken: second.artToken });
    expect(missing.status).toBe(400);
    expect(missing.body.error.data.app).toMatchObject({
      error: 'validation_failed',
      errors: { reason: ['Reason cannot be blank.'] },
    });
    expect(await codeOf(t.caller(artist.user).admin.requestChanges({ artToken: second.artToken, reason: 'No.' }))).toBe(
      'forbidden',
    );
    expect(
      await codeOf(t.caller(admin.user).admin.requestChanges({ artToken: first.artToken, reason: 'Too late.' })),
    ).toBe('art_not_submitted');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });

  it('sends the piece back with the reason, which the artist reads by e-mail and in the editor; resubmitting queues it again', async () => {
    const author = secondAuthor.user;
    const reason = 'Please add a photo of the whole piece, not only a detail.';
    const mailsBefore = (await mailsOf(t)).length;
    const answer = await t.caller(admin.user).admin.requestChanges({ artToken: second.artToken, reason });
    expect(answer).toEqual({ artToken: second.artToken, status: ArtStatus.ChangesRequested, reviewNote: reason });
    expect(await artRow(t.deps.db, second.artToken)).toMatchObject({
      status: ArtStatus.ChangesRequested,
      reviewNote: reason,
    });
    expect(await t.caller(admin.user).admin.queue()).toEqual([]);

    const mail = (await mailsOf(t)).slice(mailsBefore).find((m) => m.to === author.email);
    expect(mail?.subject).toBe('Your piece needs a few changes');
    expect(mail?.text).toContain(reason);
    expect(mail?.text).toContain(`/observe/cell/${second.cellToken}/edit`);
    const log = await t.deps.db.select().from(staffActions).where(eq(staffActions.action, 'request_changes'));
    expect(log).toMatchObject([{ staffId: admin.user.id, subjectToken: second.artToken, note: reason }]);

    const editor = await t.caller(author).art.forEdit({ cellToken: second.cellToken });
    expect(editor.art).toMatchObject({ status: ArtStatus.ChangesRequested, reviewNote: reason });

    // The editor's SUBMIT over HTTP, keeping the picture: back in the queue as SUBMITTED.
    const authorBrowser = await browserFor(t, secondAuthor.cookie);
    const kept = editor.art!.pictures.map((p) => p.token);
    const resubmitted = await postForm(
      t,
      authorBrowser,
      `/api/cell/${second.cellToken}`,
      artForm(validFields({ submit: '1', title: 'Second Light' }), [], kept),
    );
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body.r.art).toMatchObject({ status: ArtStatus.Submitted, review_note: null });
    expect((await t.caller(admin.user).admin.queue()).map((item) => item.artToken)).toEqual([second.artToken]);
  });
});
