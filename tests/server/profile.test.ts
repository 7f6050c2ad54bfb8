/**
 * Profiles (issue 9; decision 014): the public profile, the profile form through tRPC and through the multipart REST
 * route with the avatar, every rule of the form and of the avatar (each refusal with its message and nothing changed,
 * rows and files), and the stored avatar itself (300x300 JPEG on white, no EXIF, the old file removed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, cells, connections, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { toAppError } from '#server/errors.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { browserFor, cellAt, gif, jpegWithGps, png, postForm, publishedPieceAt } from '../helpers/art-fixtures.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';
import { profileForm, profileState, userRow, validProfile } from '../helpers/server/profile-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.cleanup());

const state = () => profileState(t.deps.db, t.deps.config.mediaDir);

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

/** A 400x400 PNG whose left half is transparent (black, alpha 0) and right half red: flattening must make the left white. */
function halfTransparentPng() {
  const size = 400;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = size / 2; x < size; x++) pixels.set([200, 30, 30, 255], (y * size + x) * 4);
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 4 } })
    .png()
    .toBuffer();
}

describe('the public profile', () => {
  it('shows names, address parts, counts and member-since to anyone, and never the e-mail unless show_email', async () => {
    const { user } = t.addUser(Role.Artist);
    await t.caller(user).user.updateProfile({ token: user.token, ...validProfile() });
    const seen = await t.caller().user.profile({ token: user.token });
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

    t.deps.db.update(users).set({ showEmail: true }).where(eq(users.id, user.id)).run();
    expect((await t.caller().user.profile({ token: user.token })).email).toBe(user.email);
  });

  it('answers user_not_found for an unknown or disabled member, over HTTP too', async () => {
    const guest = await browserFor(t);
    expectFailure(await guest.get(`/api/user/${'m'.repeat(22)}/profile`), 'user_not_found');
    const { user } = t.addUser(Role.Artist);
    t.deps.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, user.id)).run();
    expectFailure(await guest.get(`/api/user/${user.token}/profile`), 'user_not_found');
  });
});

describe('the profile form', () => {
  it('saves every field for the owner, who reads them back as the full profile', async () => {
    const { user } = t.addUser(Role.Artist);
    const fields = validProfile({
      fb_url: 'www.facebook.com/rivers',
      tw_url: 'http://x.example/rivers',
      tt_url: 'https://tt.example/@r',
      in_url: 'https://in.example/r',
    });
    const saved = await t.caller(user).user.updateProfile({ token: user.token, ...fields });
    const expected = { ...fields, token: user.token, image: null, fb_url: 'https://www.facebook.com/rivers' };
    expect(saved).toEqual(expected);
    expect(await t.caller(user).user.fullProfile({ token: user.token })).toEqual(expected);
  });

  it('takes any state as free text outside the US, and trims what it stores', async () => {
    const { user } = t.addUser(Role.Artist);
    const saved = await t.caller(user).user.updateProfile({
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
    ['description', '   ', 'Description cannot be blank.'],
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
    const { user } = t.addUser(Role.Artist);
    await t.caller(user).user.updateProfile({ token: user.token, ...validProfile() });
    const before = state();
    const refused = await refusal(
      t.caller(user).user.updateProfile({ token: user.token, ...validProfile({ [field]: value }) }),
    );
    expect(refused).toEqual({ code: 'validation_failed', errors: { [field]: [message] } });
    expect(state()).toEqual(before);
  });

  it('refuses a javascript: URL in every URL field over HTTP, and stores none', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const before = state();
    for (const field of ['personal_url', 'fb_url', 'tw_url', 'tt_url', 'in_url']) {
      const answer = await postForm(
        t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile({ [field]: 'javascript:alert(1)' })),
      );
      expect(expectFailure(answer, 'validation_failed').errors).toEqual({ [field]: ['Format is invalid.'] });
    }
    expect(state()).toEqual(before);
  });

  it("refuses someone else's profile, admins included, and a guest, changing nothing", async () => {
    const owner = t.addUser(Role.Artist);
    const before = state();
    for (const role of [Role.Observer, Role.Artist, Role.Admin]) {
      const other = t.addUser(role);
      const browser = await browserFor(t, other.cookie);
      const answer = await postForm(
        t,
        browser,
        `/api/user/${owner.user.token}/profile`,
        profileForm(validProfile(), { bytes: await png(), name: 'a.png', type: 'image/png' }),
      );
      expectFailure(answer, 'forbidden');
      before.users.push(userRow(t.deps.db, other.user.id));
    }
    const guest = await browserFor(t);
    expectFailure(
      await postForm(t, guest, `/api/user/${owner.user.token}/profile`, profileForm(validProfile())),
      'unauthenticated',
    );
    expect(state()).toEqual(before);
  });

  it('saves through the multipart route without an image, and answers the full profile', async () => {
    const { user, cookie } = t.addUser(Role.Observer);
    const browser = await browserFor(t, cookie);
    const answer = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: 'Albany' })),
    );
    expect(expectSuccess(answer)).toMatchObject({ token: user.token, city: 'Albany', image: null });
    expect(expectSuccess(await browser.get(`/api/user/${user.token}/fullprofile`))).toMatchObject({ city: 'Albany' });
  });

  it('takes a JSON body on the same path, and refuses two images in one form', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    expect(
      expectSuccess(await browser.post(`/api/user/${user.token}/profile`, validProfile({ city: 'Buffalo' }))),
    ).toMatchObject({ city: 'Buffalo' });
    const before = state();
    const form = profileForm(validProfile({ city: 'Troy' }), { bytes: await png(), name: 'a.png', type: 'image/png' });
    form.append('image', new Blob([new Uint8Array(await gif())], { type: 'image/gif' }), 'b.gif');
    expectFailure(await postForm(t, browser, `/api/user/${user.token}/profile`, form), 'bad_request');
    expect(state()).toEqual(before);
  });
});

describe('the avatar', () => {
  const mediaFile = (url: string) => path.join(t.deps.config.mediaDir, url.replace(/^\/media\//, ''));

  it('stores a 300x300 JPEG flattened on white with no EXIF, served under /media', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const answer = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: await halfTransparentPng(), name: 'me.png', type: 'image/png' }),
    );
    const saved = expectSuccess(answer);
    expect(saved.image).toMatch(/^\/media\/[0-9a-f]{32}-avatar\.jpg$/);
    const stored = fs.readFileSync(mediaFile(saved.image));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: AVATAR_LIMITS.size, height: AVATAR_LIMITS.size });
    expect(meta.exif).toBeUndefined();
    const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    // Left edge (transparent in the upload) is white; the right edge keeps the red.
    expect([...data.subarray(150 * 300 * 3 + 5 * 3, 150 * 300 * 3 + 5 * 3 + 3)].every((c) => c > 245)).toBe(true);
    const right = data.subarray(150 * 300 * 3 + 295 * 3, 150 * 300 * 3 + 295 * 3 + 3);
    expect(right[0]).toBeGreaterThan(180);
    expect(right[1]).toBeLessThan(60);

    const served = await t.server.inject({ url: saved.image });
    expect(served.statusCode).toBe(200);
    expect((await t.caller().user.profile({ token: user.token })).image).toBe(saved.image);
  });

  it('drops the EXIF (GPS) of a camera JPEG and takes a GIF, removing the old avatar file after the new one is saved', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const first = expectSuccess(
      await postForm(
        t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile(), { bytes: await jpegWithGps(), name: 'cam.jpg', type: 'image/jpeg' }),
      ),
    );
    expect((await sharp(fs.readFileSync(mediaFile(first.image))).metadata()).exif).toBeUndefined();
    const second = expectSuccess(
      await postForm(
        t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile(), { bytes: await gif(), name: 'anim.gif', type: 'image/gif' }),
      ),
    );
    expect(second.image).not.toBe(first.image);
    expect(fs.existsSync(mediaFile(second.image))).toBe(true);
    expect(fs.existsSync(mediaFile(first.image))).toBe(false);
    // Saving the form again without an image keeps the avatar.
    expect(
      expectSuccess(await postForm(t, browser, `/api/user/${user.token}/profile`, profileForm(validProfile()))).image,
    ).toBe(second.image);
    expect(fs.existsSync(mediaFile(second.image))).toBe(true);
  });

  it('keeps a file two members share when one of them changes avatar', async () => {
    const a = t.addUser(Role.Artist);
    const b = t.addUser(Role.Artist);
    const same = await png(50, 50, '#00aa00');
    const shared = expectSuccess(
      await postForm(
        t,
        await browserFor(t, a.cookie),
        `/api/user/${a.user.token}/profile`,
        profileForm(validProfile(), { bytes: same, name: 'x.png', type: 'image/png' }),
      ),
    );
    expectSuccess(
      await postForm(
        t,
        await browserFor(t, b.cookie),
        `/api/user/${b.user.token}/profile`,
        profileForm(validProfile(), { bytes: same, name: 'y.png', type: 'image/png' }),
      ),
    );
    expectSuccess(
      await postForm(
        t,
        await browserFor(t, a.cookie),
        `/api/user/${a.user.token}/profile`,
        profileForm(validProfile(), { bytes: await png(50, 50, '#0000aa'), name: 'z.png', type: 'image/png' }),
      ),
    );
    expect(fs.existsSync(mediaFile(shared.image))).toBe(true);
  });

  const webp = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
  const NOT_IMAGES: [what: string, bytes: () => Promise<Buffer>, name: string, type: string][] = [
    ['a text file named .jpg', async () => Buffer.from('just some words, not a picture'), 'avatar.jpg', 'image/jpeg'],
    ['a WebP named .png', webp, 'avatar.png', 'image/png'],
    [
      'an SVG named .gif',
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'avatar.gif',
      'image/gif',
    ],
    [
      'JPEG magic bytes followed by garbage',
      async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]),
      'avatar.jpeg',
      'image/jpeg',
    ],
    ['an empty file with a name', async () => Buffer.alloc(0), 'avatar.png', 'image/png'],
  ];

  it.each(NOT_IMAGES)('refuses %s with the format message, storing nothing', async (_what, bytes, name, type) => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const before = state();
    const answer = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: await bytes(), name, type }),
    );
    const r = expectFailure(answer, 'validation_failed');
    expect(r.errors).toEqual({ image: [AVATAR_MESSAGES.wrongType] });
    expect(state()).toEqual(before);
  });

  it('refuses an image over 8 MB with the size message, storing nothing', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const before = state();
    const big = Buffer.concat([await png(), Buffer.alloc(AVATAR_LIMITS.maxBytes)]);
    const answer = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: big, name: 'big.png', type: 'image/png' }),
    );
    expect(expectFailure(answer, 'payload_too_large').errors).toEqual({ image: [AVATAR_MESSAGES.tooBig] });
    expect(state()).toEqual(before);
  });

  it('writes no avatar when a field is refused, and names both problems at once', async () => {
    const { user, cookie } = t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const before = state();
    const ok = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: '' }), { bytes: await png(), name: 'a.png', type: 'image/png' }),
    );
    expect(expectFailure(ok, 'validation_failed').errors).toEqual({ city: ['City cannot be blank.'] });
    const both = await postForm(
      t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: '' }), { bytes: Buffer.from('text'), name: 'a.png', type: 'image/png' }),
    );
    expect(expectFailure(both, 'validation_failed').errors).toEqual({
      city: ['City cannot be blank.'],
      image: [AVATAR_MESSAGES.wrongType],
    });
    expect(state()).toEqual(before);
  });
});

describe("a member's pieces: ATELIER and the profile's ART cards", () => {
  /** A piece written directly on (row, column) with the given status and creation time (review is issue 8's). */
  function pieceAt(treeId: number, row: number, column: number, authorId: number, status: number, createdAt: number) {
    const cell = cellAt(t.deps.db, treeId, row, column);
    const piece = t.deps.db
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
      .get();
    t.deps.db.update(cells).set({ status: CellStatus.Pending, artId: piece.id }).where(eq(cells.id, cell.id)).run();
    return { cellToken: cell.token, artToken: piece.token };
  }

  it('lists drafts, submitted and published pieces newest first for the owner, and only published cards with connections for everyone', async () => {
    const tree = createTree(t.deps.db, t.clock.now(), 'Profiles');
    const owner = t.addUser(Role.Artist);
    const neighbour = t.addUser(Role.Artist).user;
    const published = publishedPieceAt(t.deps.db, tree.id, 10, 2, owner.user.id, 'a'.repeat(32));
    const next = publishedPieceAt(t.deps.db, tree.id, 10, 3, neighbour.id, 'b'.repeat(32));
    const publishedId = t.deps.db.select({ id: art.id }).from(art).where(eq(art.token, published.artToken)).get()!.id;
    t.deps.db
      .insert(connections)
      .values({
        token: newToken(),
        artId: publishedId,
        nextCellId: cellAt(t.deps.db, tree.id, 10, 3).id,
        description: 'Rivers meet.',
        createdAt: 1,
        updatedAt: 1,
      })
      .run();
    const submitted = pieceAt(tree.id, 12, 2, owner.user.id, ArtStatus.Submitted, Date.UTC(2026, 2, 1));
    pieceAt(tree.id, 12, 3, owner.user.id, ArtStatus.Removed, Date.UTC(2026, 3, 1));
    const draft = reserveCell(t.deps, owner.user, cellAt(t.deps.db, tree.id, 33, 0).token);

    const atelier = await t.caller(owner.user).user.art({ token: owner.user.token });
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

    const cards = await t.caller().user.publishedArt({ token: owner.user.token });
    expect(cards).toEqual([
      expect.objectContaining({
        cellToken: published.cellToken,
        artToken: published.artToken,
        year: 2020,
        thumb: `/media/${'a'.repeat(32)}-thumb.webp`,
        connections: [{ cellToken: next.cellToken, thumb: `/media/${'b'.repeat(32)}-thumb.webp` }],
      }),
    ]);

    const browser = await browserFor(t, owner.cookie);
    expect(expectSuccess(await browser.get(`/api/user/${owner.user.token}/art`))).toHaveLength(3);
    // Over REST each card is the cell with its piece, its connections as next cells with their thumbnails.
    expect(expectSuccess(await (await browserFor(t)).get(`/api/user/${owner.user.token}/art/published`))).toEqual([
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
      await (await browserFor(t, t.addUser(Role.Artist).cookie)).get(`/api/user/${owner.user.token}/art`),
      'forbidden',
    );
  });
});
