/**
 * Hostile files at both upload doors over HTTP, the art save and the avatar (decisions 009, 014): what is stored and
 * served is only a re-encoded picture, or nothing, with the form's message. The plain cases (a text file named .png,
 * a broken PNG, 20000×20000, WebP, over-size) are in the art-save-refusals, art-media and profile-avatar tests.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Role } from '#shared/domain.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, cellAt, postForm, validFields } from '../helpers/art-fixtures.ts';
import {
  CAMERA,
  cameraJpeg,
  GIF_HEADER_SCRIPT,
  gifScriptPolyglot,
  HTML_PAGE,
  noisyImage,
  pngBomb,
  SCRIPT,
  truncated,
  zipOf,
} from '../helpers/server/hostile-files.ts';
import { profileForm, validProfile } from '../helpers/server/profile-fixtures.ts';
import { watchStore } from '../helpers/server/store-fingerprint.ts';

let t: TestApp;
let store: ReturnType<typeof watchStore>;

interface Door {
  name: string;
  /** The field a refused image is named under, and the message for each kind of refusal. */
  field: string;
  refusal: { type: string; unreadable: string; pixels: string };
  /** Sends one image; answers the HTTP status, the body, and the media URLs the answer names. */
  send: (bytes: Buffer, name: string, type: string) => Promise<{ status: number; body: any; media: string[] }>;
  /** The largest side a stored picture may have. */
  maxSide: number;
}

const doors: Door[] = [];

beforeAll(async () => {
  t = await createTestApp();
  store = watchStore(t.deps.db, t.deps.media);
  const tree = await createTree(t.deps.db, t.clock.now(), 'Uploads');
  const artist = await t.addUser(Role.Observer);
  const square = (await cellAt(t.deps.db, tree.id, 33, 0)).token;
  await reserveCell(t.deps, artist.user, square);
  const artBrowser: BrowserLike = await browserFor(t, artist.cookie);
  const member = await t.addUser(Role.Artist);
  const avatarBrowser: BrowserLike = await browserFor(t, member.cookie);
  doors.push(
    {
      name: 'the art save',
      field: 'files.0',
      refusal: {
        type: ART_MESSAGES.imageType,
        unreadable: ART_MESSAGES.imageUnreadable,
        pixels: ART_MESSAGES.imageTooManyPixels,
      },
      maxSide: 1600,
      async send(bytes, name, type) {
        const answer = await postForm(
          t,
          artBrowser,
          `/api/cell/${square}`,
          artForm(validFields(), [{ bytes, name, type }]),
        );
        const pictures: { thumb: string; image: string }[] = answer.body?.r?.art?.pictures ?? [];
        return { ...answer, media: pictures.flatMap((p) => [p.thumb, p.image]) };
      },
    },
    {
      name: 'the avatar',
      field: 'image',
      refusal: {
        type: AVATAR_MESSAGES.wrongType,
        unreadable: AVATAR_MESSAGES.wrongType,
        pixels: AVATAR_MESSAGES.wrongType,
      },
      maxSide: 300,
      async send(bytes, name, type) {
        const answer = await postForm(
          t,
          avatarBrowser,
          `/api/user/${member.user.token}/profile`,
          profileForm(validProfile(), { bytes, name, type }),
        );
        const image: string | undefined = answer.body?.r?.image;
        return { ...answer, media: image ? [image] : [] };
      },
    },
  );
}, 60_000);
afterAll(() => t.cleanup());

/** Marks of what was uploaded that must never survive into a stored file. */
const PAYLOAD_MARKS = [
  '<script',
  'alert(',
  '<html',
  'onerror',
  'PK\u0003\u0004',
  'payload.js',
  CAMERA.make,
  CAMERA.model,
  CAMERA.xmpCreator,
];

/** Files that are pictures, but something else too (or named as something else): stored only as the picture. */
const DISGUISED: { name: string; file: () => Promise<{ bytes: Buffer; name: string; type: string }> }[] = [
  {
    name: 'a PNG with an HTML page appended',
    file: async () => ({
      bytes: Buffer.concat([await noisyImage(60, 40).png().toBuffer(), Buffer.from(HTML_PAGE)]),
      name: 'page.png',
      type: 'image/png',
    }),
  },
  {
    name: 'a PNG with a zip archive appended',
    file: async () => ({
      bytes: Buffer.concat([await noisyImage(60, 40).png().toBuffer(), zipOf('payload.js', SCRIPT)]),
      name: 'archive.png',
      type: 'image/png',
    }),
  },
  {
    name: 'a GIF with a script in a comment block',
    file: async () => ({ bytes: await gifScriptPolyglot('comment'), name: 'anim.gif', type: 'image/gif' }),
  },
  {
    name: 'a GIF with a script after its trailer',
    file: async () => ({ bytes: await gifScriptPolyglot('tail'), name: 'anim.gif', type: 'image/gif' }),
  },
  {
    name: 'a JPEG named .gif and sent as image/gif',
    file: async () => ({ bytes: await noisyImage(50, 50).jpeg().toBuffer(), name: 'picture.gif', type: 'image/gif' }),
  },
  {
    name: 'a PNG named page.html and sent as text/html',
    file: async () => ({ bytes: await noisyImage(50, 50).png().toBuffer(), name: 'page.html', type: 'text/html' }),
  },
  {
    name: 'a camera JPEG with GPS in its EXIF and the photographer in XMP',
    file: async () => ({ bytes: await cameraJpeg(), name: 'IMG_0001.JPG', type: 'image/jpeg' }),
  },
  {
    name: 'a 20000×2 strip (huge side, few pixels)',
    file: async () => ({ bytes: await noisyImage(20000, 2).png().toBuffer(), name: 'strip.png', type: 'image/png' }),
  },
];

/** Files that must be refused: the kind of refusal names the door's message. */
const REFUSED: {
  name: string;
  kind: keyof Door['refusal'];
  file: () => Promise<{ bytes: Buffer; name: string; type: string }>;
}[] = [
  {
    name: 'an SVG with a script, named .png',
    kind: 'type',
    file: async () => ({
      bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">${SCRIPT}</svg>`),
      name: 'logo.png',
      type: 'image/png',
    }),
  },
  {
    name: 'an HTML page named .jpg',
    kind: 'type',
    file: async () => ({ bytes: Buffer.from(HTML_PAGE), name: 'photo.jpg', type: 'image/jpeg' }),
  },
  {
    name: 'a GIF header that is only a script',
    kind: 'unreadable',
    file: async () => ({ bytes: GIF_HEADER_SCRIPT, name: 'x.gif', type: 'image/gif' }),
  },
  {
    name: 'a JPEG cut off mid-upload',
    kind: 'unreadable',
    file: async () => ({
      bytes: truncated(await noisyImage(200, 150).jpeg().toBuffer()),
      name: 'cut.jpg',
      type: 'image/jpeg',
    }),
  },
  {
    name: 'a PNG cut off mid-upload',
    kind: 'unreadable',
    file: async () => ({
      bytes: truncated(await noisyImage(200, 150).png().toBuffer()),
      name: 'cut.png',
      type: 'image/png',
    }),
  },
  {
    name: 'a GIF cut off mid-upload',
    kind: 'unreadable',
    file: async () => ({
      bytes: truncated(await noisyImage(200, 150).gif().toBuffer()),
      name: 'cut.gif',
      type: 'image/gif',
    }),
  },
  {
    name: 'a 3 KB PNG declaring 60000×60000 pixels (a decompression bomb)',
    kind: 'pixels',
    file: async () => ({ bytes: pngBomb(60000, 60000), name: 'bomb.png', type: 'image/png' }),
  },
];

describe.each(['the art save', 'the avatar'])('%s', (doorName) => {
  const door = () => doors.find((d) => d.name === doorName)!;

  for (const c of DISGUISED) {
    it(`stores ${c.name} as a clean re-encoded picture, served as an image`, async () => {
      const file = await c.file();
      const answer = await door().send(file.bytes, file.name, file.type);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.media.length).toBeGreaterThan(0);
      for (const url of answer.media) {
        // Content-hashed names: nothing of the uploaded name or type reaches the disk.
        expect(path.basename(url)).toMatch(/^[0-9a-f]{32}-(thumb|large)\.webp$|^[0-9a-f]{32}-avatar\.jpg$/);
        const bytes = (await t.deps.media.get(path.basename(url)))!;
        for (const mark of PAYLOAD_MARKS)
          expect(bytes.includes(mark), `${url} holds ${JSON.stringify(mark)}`).toBe(false);
        const meta = await sharp(bytes).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(door().maxSide);
        const served = await t.server.inject({ url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toMatch(/^image\/(webp|jpeg)$/);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  }

  for (const c of REFUSED) {
    it(`refuses ${c.name} with the form's message, storing nothing`, async () => {
      const file = await c.file();
      if (c.kind === 'pixels') expect(file.bytes.length).toBeLessThan(8 * 1024);
      const mark = await store.mark();
      const answer = await door().send(file.bytes, file.name, file.type);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.r).toMatchObject({
        error: 'validation_failed',
        errors: { [door().field]: [door().refusal[c.kind]] },
      });
      expect(await store.changedSince(mark)).toEqual([]);
    });
  }
});
