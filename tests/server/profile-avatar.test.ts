/**
 * The profile avatar (decision 014) through the multipart REST route: every rule of the avatar (each refusal
 * with its message and nothing changed, rows and files), and the stored avatar itself (300x300 JPEG on white, no EXIF,
 * the old file left to the orphan sweep: decision 044).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { browserFor, gif, jpegWithGps, png, postForm } from '../helpers/art-fixtures.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';
import { profileForm, validProfile } from '../helpers/server/profile-fixtures.ts';
import { useProfileApp } from '#tests/helpers/server/profile-app.ts';

const profiles = useProfileApp();

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

describe('the avatar', () => {
  const nameOf = (url: string) => url.replace(/^\/media\//, '');
  const storedBytes = async (url: string) => (await profiles.t.deps.media.get(nameOf(url)))!;
  const isStored = async (url: string) => await profiles.t.deps.media.exists(nameOf(url));

  it('stores a 300x300 JPEG flattened on white with no EXIF, served under /media', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const answer = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: await halfTransparentPng(), name: 'me.png', type: 'image/png' }),
    );
    const saved = expectSuccess(answer);
    expect(saved.image).toMatch(/^\/media\/[0-9a-f]{32}-avatar\.jpg$/);
    const stored = await storedBytes(saved.image);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: AVATAR_LIMITS.size, height: AVATAR_LIMITS.size });
    expect(meta.exif).toBeUndefined();
    const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    // Left edge (transparent in the upload) is white; the right edge keeps the red.
    expect([...data.subarray(150 * 300 * 3 + 5 * 3, 150 * 300 * 3 + 5 * 3 + 3)].every((c) => c > 245)).toBe(true);
    const right = data.subarray(150 * 300 * 3 + 295 * 3, 150 * 300 * 3 + 295 * 3 + 3);
    expect(right[0]).toBeGreaterThan(180);
    expect(right[1]).toBeLessThan(60);

    const served = await profiles.t.server.inject({ url: saved.image });
    expect(served.statusCode).toBe(200);
    expect((await profiles.t.caller().user.profile({ token: user.token })).image).toBe(saved.image);
  });

  it('drops the EXIF (GPS) of a camera JPEG and takes a GIF, leaving the old avatar file to the sweep', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const first = expectSuccess(
      await postForm(
        profiles.t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile(), { bytes: await jpegWithGps(), name: 'cam.jpg', type: 'image/jpeg' }),
      ),
    );
    expect((await sharp(await storedBytes(first.image)).metadata()).exif).toBeUndefined();
    const second = expectSuccess(
      await postForm(
        profiles.t,
        browser,
        `/api/user/${user.token}/profile`,
        profileForm(validProfile(), { bytes: await gif(), name: 'anim.gif', type: 'image/gif' }),
      ),
    );
    expect(second.image).not.toBe(first.image);
    expect(await isStored(second.image)).toBe(true);
    // A save deletes nothing (decision 044): the old file waits, named by no row, until the sweep a day later.
    expect(await isStored(first.image)).toBe(true);
    const dayLater = { ...profiles.t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS } };
    expect(await sweepOrphanMedia(dayLater)).toContain(nameOf(first.image));
    expect(await isStored(first.image)).toBe(false);
    // Saving the form again without an image keeps the avatar.
    expect(
      expectSuccess(await postForm(profiles.t, browser, `/api/user/${user.token}/profile`, profileForm(validProfile())))
        .image,
    ).toBe(second.image);
    expect(await isStored(second.image)).toBe(true);
  });

  it('keeps a file two members share when one of them changes avatar', async () => {
    const a = await profiles.t.addUser(Role.Artist);
    const b = await profiles.t.addUser(Role.Artist);
    const same = await png(50, 50, '#00aa00');
    const shared = expectSuccess(
      await postForm(
        profiles.t,
        await browserFor(profiles.t, a.cookie),
        `/api/user/${a.user.token}/profile`,
        profileForm(validProfile(), { bytes: same, name: 'x.png', type: 'image/png' }),
      ),
    );
    expectSuccess(
      await postForm(
        profiles.t,
        await browserFor(profiles.t, b.cookie),
        `/api/user/${b.user.token}/profile`,
        profileForm(validProfile(), { bytes: same, name: 'y.png', type: 'image/png' }),
      ),
    );
    expectSuccess(
      await postForm(
        profiles.t,
        await browserFor(profiles.t, a.cookie),
        `/api/user/${a.user.token}/profile`,
        profileForm(validProfile(), { bytes: await png(50, 50, '#0000aa'), name: 'z.png', type: 'image/png' }),
      ),
    );
    expect(await isStored(shared.image)).toBe(true);
    const dayLater = { ...profiles.t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS } };
    await sweepOrphanMedia(dayLater);
    expect(await isStored(shared.image)).toBe(true);
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
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const before = await profiles.state();
    const answer = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: await bytes(), name, type }),
    );
    const r = expectFailure(answer, 'validation_failed');
    expect(r.errors).toEqual({ image: [AVATAR_MESSAGES.wrongType] });
    expect(await profiles.state()).toEqual(before);
  });

  it('refuses an image over 8 MB with the size message, storing nothing', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const before = await profiles.state();
    const big = Buffer.concat([await png(), Buffer.alloc(AVATAR_LIMITS.maxBytes)]);
    const answer = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile(), { bytes: big, name: 'big.png', type: 'image/png' }),
    );
    expect(expectFailure(answer, 'payload_too_large').errors).toEqual({ image: [AVATAR_MESSAGES.tooBig] });
    expect(await profiles.state()).toEqual(before);
  });

  it('writes no avatar when a field is refused, and names both problems at once', async () => {
    const { user, cookie } = await profiles.t.addUser(Role.Artist);
    const browser = await browserFor(profiles.t, cookie);
    const before = await profiles.state();
    const ok = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: '' }), { bytes: await png(), name: 'a.png', type: 'image/png' }),
    );
    expect(expectFailure(ok, 'validation_failed').errors).toEqual({ city: ['City cannot be blank.'] });
    const both = await postForm(
      profiles.t,
      browser,
      `/api/user/${user.token}/profile`,
      profileForm(validProfile({ city: '' }), { bytes: Buffer.from('text'), name: 'a.png', type: 'image/png' }),
    );
    expect(expectFailure(both, 'validation_failed').errors).toEqual({
      city: ['City cannot be blank.'],
      image: [AVATAR_MESSAGES.wrongType],
    });
    expect(await profiles.state()).toEqual(before);
  });
});
