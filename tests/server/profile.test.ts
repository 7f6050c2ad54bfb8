/**
 * Profiles (decision 014): the public profile, the profile form through tRPC and through the multipart REST
 * route with every rule of the form (each refusal with its message and nothing changed), and a member's pieces on
 * ATELIER and the profile's ART cards. The avatar is in profile-avatar.test.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { art, cells, connections, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { toAppError } from '#server/errors.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { browserFor, cellAt, gif, png, postForm, publishedPieceAt } from '../helpers/art-fixtures.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';
import { profileForm, userRow, validProfile } from '../helpers/server/profile-fixtures.ts';
import { useProfileApp } from '#tests/helpers/server/profile-app.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const profiles = useProfileApp();

/** The field errors of a refused call (tRPC input validation or the service's own). */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  const app = toAppError(error);
  return { code: app.code, errors: app.fieldErrors ?? {} };
}

describe('the public profile', () => {
  it('shows names, address parts, counts and member-since to anyone, and never the e-mail unless show_email', async () => {
    const { user } = await profiles.t.addUser(Role.Artist);
    await profiles.t.caller(user).user.updateProfile({ token: user.token, ...validProfile() });
    const seen = await profiles.t.caller().user.profile({ token: user.token });
    expect(seen).toMatchObject({
      token: user.token,
      firstname: user.firstname,
      lastname: user.lastname,
      role: Role.Artist,
      image: null,
      city: 'New York',
      zipcode: '10001',
      state: 'NY',
      country: 'US',
      countryName: 'United States of America',
      email: null,
      personal_url: 'https://rivers.example.org',
      description: 'I paint rivers at dusk.',
      exhibitions: 'Harbour Gallery, 2024',
      created_at: user.createdAt,
      activity: { likes: 0, followers: 0 },
    });
    expect(JSON.stringify(seen)).not.toContain(user.email);

    await profiles.t.deps.db.update(users).set({ showEmail: true }).where(eq(users.id, user.id));
    expect((await profiles.t.caller().user.profile({ token: user.token })).email).toBe(user.email);
  });

  it('answers user_not_found for an unknown or disabled member, over HTTP too', async () => {
    const guest = await browserFor(profiles.t);
    expectFailure(await guest.get(`/api/user/${'m'.repeat(22)}/profile`), 'user_not_found');
    const { user } = await profiles.t.addUser(Role.Artist);
    await profiles.t.deps.db.update(users).set({ disabledAt: profiles.t.clock.now() }).where(eq(users.id, user.id));
    expectFailure(await guest.get(`/api/user/${user.token}/profile`), 'user_not_found');
  });
});

describe('the profile form', () => {
  it('saves every field for the owner, who reads them back as the full profile', async () => {
    const { user } = await profiles.t.addUser(Role.Artist);
    const fields = validProfile({
      fb_url: 'www.facebook.com/rivers',
      tw_url: 'http://x.example/rivers',
      tt_url: 'https://tt.example/@r',
      in_url: 'https://in.example/r',
    });
    const saved = await profiles.t.caller(user).user.updateProfile({ token: user.token, ...fields });
    const expected = { ...fields, token: user.token, image: null, fb_url: 'https://www.facebook.com/rivers' };
    expect(saved).toEqual(expected);
    expect(await profiles.t.caller(user).user.fullProfile({ token: user.token })).toEqual(expected);
  });

  it('takes any state as free text outside the US, and trims what it stores', async () => {
    const { user } = await profiles.t.addUser(Role.Artist);
    const saved = await profiles.t.caller(user).user.updateProfile({
      token: user.token,
      ...validProfile({ country: 'DE', state: '  Bavaria ', zipcode: '80331', city: 'Munich' }),
    });
    expect(saved).toMatchObject({ country: 'DE', state: 'Bavaria', city: 'Munich' });
  });

  const long = (n: number) => 'a'.repeat(n);
  const BAD: [field: string, value: string, message: string][] = [
    ['zipcode', '', 'Zipcode cannot be blank.'],
    ['zipcode', long(17), 'Maximal length is 16 symbols.'],
    ['country', ' ', 'Country cannot be blank.'],
    ['country', 'XX', 'Invalid value.'],
    ['country', long(128), 'Maximal length is 127 symbols.'],
    ['city', '', 'City cannot be blank.'],
    ['city', long(128), 'Maximal length is 127 symbols.'],
    ['state', '', 'State cannot be blank.'],
    ['state', 'Ontario', 'Invalid value.'],
    ['state', long(128), 'Maximal length is 127 symbols.'],
    ['description', '   ', 'Bio cannot be blank.'],
    ['description', long(8193), 'Maximal length is 8192 symbols.'],
    ['exhibitions', long(8193), 'Maximal length is 8192 symbols.'],
    ['education', long(8193), 'Maximal length is 8192 symbols.'],
    ['personal_url', `https://${long(250)}`, 'Maximal length is 255 symbols.'],
    ['personal_url', 'javascript:alert(1)', 'Format is invalid.'],
    ['fb_url', ' JavaScript:alert(document.cookie)', 'Format is invalid.'],
    ['tw_url', 'data:text/html,<b>hi</b>', 'Format is invalid.'],
    ['tt_url', 'ftp://files.example.org', 'Format is invalid.'],
    ['in_url', 'vbscript:msgbox', 'Format is invalid.'],
    ['in_url', 'https://ok.example/"onmouseover="x', 'Format is invalid.'],
    ['personal_url', 'rivers.example.org', 'Format is invalid.'],
  ];

  it.each(
    BAD.map(([field, value, message]) => ({
      field,
      value,
      message,
      shown: value.length > 40 ? `${value.length} characters` : JSON.stringify(value),
    })),
  )('refuses $field = $shown with its message and changes nothing (tRPC)', async ({ field, value, message }) => {
    const { user } = await profiles.t.addUser(Role.Artist);
    await profiles.t.caller(user).user.updateProfile({ token: user.token, ...validProfile() });
    const before = await profiles.state();
    const refused = await refusal(
      profiles.t.caller(user).user.updateProfile({ token: user.token, ...validProfile({ [field]: value }) }),
    );
    expect(refused).toEqual({ code: 'validation_failed', errors: { [field]: [message] } });
    expect(await profiles.state()).toEqual(before);
  });

  it('refuses a javascript: URL in every URL field over HTTP, and stores none', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const before = await profiles.state();
    for (const field of ['personal_url', 'fb_url', 'tw_url', 'tt_url', 'in_url']) {
      const answer = await postForm(
        profiles.t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile({ [field]: 'javascript:alert(1)' })),
      );
      expect(expectFailure(answer, 'validation_failed').errors).toEqual({ [field]: ['Format is invalid.'] });
    }
    expect(await profiles.state()).toEqual(before);
  });

  it("refuses someone else's profile, admins included, and a guest, changing nothing", async () => {
    const owner = await profiles.t.addUser(Role.Artist);
    const before = await profiles.state();
    for (const role of [Role.Observer, Role.Artist, Role.Admin]) {
      const other = await profiles.t.addUser(role);
      const browser = await browserFor(profiles.t, other.cookie);
      const answer = await postForm(
        profiles.t,
        browser,
        `/api/user/${owner.user.token}/profile`,
        profileForm(validProfile(), { bytes: await png(), name: 'a.png', type: 'image/png' }),
      );
      expectFailure(answer, 'forbidden');
      before.users.push(await userRow(profiles.t.deps.db, other.user.id));
    }
    const guest = await browserFor(profiles.t);
    expectFailure(
      await postForm(profiles.t, guest, `/api/user/${owner.user.token}/profile`, profileForm(validProfile())),
      'unauthenticated',
    );
    expect(await profiles.state()).toEqual(before);
  });

  it('saves through the multipart route without an image, and answers the full profile', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Observer);
    const browser = await browserFor(profiles.t, cookie);
    const answer = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: 'Albany' })),
    );
    expect(expectSuccess(answer)).toMatchObject({ token: user.token, city: 'Albany', image: null });
    expect(expectSuccess(await browser.get(`/api/user/${user.token}/fullprofile`))).toMatchObject({ city: 'Albany' });
  });

  it('takes a JSON body on the same path, and refuses two images in one form', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    expect(
      expectSuccess(await browser.post(`/api/user/${user.token}/profile`, validProfile({ city: 'Buffalo' }))),
    ).toMatchObject({ city: 'Buffalo' });
    const before = await profiles.state();
    const form = profileForm(validProfile({ city: 'Troy' }), { bytes: await png(), name: 'a.png', type: 'image/png' });
    form.append('image', new Blob([new Uint8Array(await gif())], { type: 'image/gif' }), 'b.gif');
    expectFailure(await postForm(profiles.t, browser, `/api/user/${user.token}/profile`, form), 'bad_request');
    expect(await profiles.state()).toEqual(before);
  });
});

describe("a member's pieces: ATELIER and the profile's ART cards", () => {
  /** A piece written directly on (row, column) with the given status and creation time (not through review). */
  async function pieceAt(
    treeId: number,
    row: number,
    column: number,
    authorId: number,
    status: number,
    createdAt: number,
  ) {
    const cell = await cellAt(profiles.t.deps.db, treeId, row, column);
    const piece = (
      await profiles.t.deps.db
        .insert(art)
        .values({
          token: newToken(),
          cellId: cell.id,
          authorId,
          status,
          title: `Piece ${row}/${column}`,
          category: 'Drawing',
          createdAt,
          updatedAt: createdAt,
        })
        .returning()
    )[0]!;
    await profiles.t.deps.db
      .update(cells)
      .set({ status: CellStatus.Pending, artId: piece.id })
      .where(eq(cells.id, cell.id));
    return { cellToken: cell.token, artToken: piece.token };
  }

  it('lists drafts, submitted and published pieces newest first for the owner, and only published cards with connections for everyone', async () => {
    const tree = await createTree(profiles.t.deps.db, profiles.t.clock.now(), 'Profiles');
    const owner = await profiles.t.addUser(Role.Artist);
    const neighbour = (await profiles.t.addUser(Role.Artist)).user;
    const published = await publishedPieceAt(profiles.t.deps.db, tree.id, 10, 2, owner.user.id, 'a'.repeat(32));
    const next = await publishedPieceAt(profiles.t.deps.db, tree.id, 10, 3, neighbour.id, 'b'.repeat(32));
    const publishedId = (
      await oneRow(profiles.t.deps.db.select({ id: art.id }).from(art).where(eq(art.token, published.artToken)))
    ).id;
    await profiles.t.deps.db.insert(connections).values({
      token: newToken(),
      artId: publishedId,
      nextCellId: (await cellAt(profiles.t.deps.db, tree.id, 10, 3)).id,
      description: 'Rivers meet.',
      createdAt: 1,
      updatedAt: 1,
    });
    const submitted = await pieceAt(tree.id, 12, 2, owner.user.id, ArtStatus.Submitted, Date.UTC(2026, 2, 1));
    await pieceAt(tree.id, 12, 3, owner.user.id, ArtStatus.Removed, Date.UTC(2026, 3, 1));
    const draft = await reserveCell(
      profiles.t.deps,
      owner.user,
      (await cellAt(profiles.t.deps.db, tree.id, 33, 0)).token,
    );

    const atelier = await profiles.t.caller(owner.user).user.art({ token: owner.user.token });
    expect(atelier.map((item) => [item.cellToken, item.status, item.reservedUntil])).toEqual([
      [draft.token, ArtStatus.Draft, draft.expiresAt],
      [submitted.cellToken, ArtStatus.Submitted, null],
      [published.cellToken, ArtStatus.Published, null],
    ]);
    expect(atelier[0]).toMatchObject({
      artToken: draft.art.token,
      cellStatus: CellStatus.Reserved,
      thumb: null,
      treeToken: tree.token,
      row: 33,
      column: 0,
    });
    expect(atelier[2]).toMatchObject({
      title: 'Neighbour 10/2',
      thumb: `/media/${'a'.repeat(32)}-thumb.webp`,
      activity: { likes: 0, reviews: 0 },
    });

    const cards = await profiles.t.caller().user.publishedArt({ token: owner.user.token });
    expect(cards).toEqual([
      expect.objectContaining({
        cellToken: published.cellToken,
        artToken: published.artToken,
        year: 2020,
        thumb: `/media/${'a'.repeat(32)}-thumb.webp`,
        connections: [{ cellToken: next.cellToken, thumb: `/media/${'b'.repeat(32)}-thumb.webp` }],
      }),
    ]);

    const browser = await browserFor(profiles.t, owner.cookie);
    expect(expectSuccess(await browser.get(`/api/user/${owner.user.token}/art`))).toHaveLength(3);
    // Over REST each card is the cell with its piece, its connections as next cells with their thumbnails.
    expect(
      expectSuccess(await (await browserFor(profiles.t)).get(`/api/user/${owner.user.token}/art/published`)),
    ).toEqual([
      expect.objectContaining({
        token: published.cellToken,
        row: 10,
        column: 2,
        status: CellStatus.Published,
        art: expect.objectContaining({
          token: published.artToken,
          year: 2020,
          picture: { thumb: `/media/${'a'.repeat(32)}-thumb.webp` },
        }),
        connections: [
          { next_cell: { token: next.cellToken, art: { picture: { thumb: `/media/${'b'.repeat(32)}-thumb.webp` } } } },
        ],
      }),
    ]);
    expectFailure(
      await (
        await browserFor(profiles.t, (await profiles.t.addUser(Role.Artist)).cookie)
      ).get(`/api/user/${owner.user.token}/art`),
      'forbidden',
    );
  });
});
