/**
 * What the profile browser tests set up without testing it: members signed up from the page, a piece submitted and
 * a square reserved through the REST paths the editor and the reserve popup use, a seeded artist to follow, and
 * picture files made with sharp in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells, connections, follows, userLikes, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { validFields } from '#tests/helpers/art-fixtures.ts';
import { postFromPage, type Gallery } from './harness.ts';
import { openPage, type ReusablePage } from './pages.ts';

export interface Member {
  context: BrowserContext;
  page: Page;
  errors: string[];
  email: string;
  id: number;
  token: string;
}

/**
 * Signs a new member up from the page (as the registration form does) and reloads as them: in a context of their own
 * (`from` a browser), or on a reused page taken for them.
 */
export async function signUp(
  gallery: Gallery,
  from: Browser | ReusablePage,
  firstname: string,
  lastname: string,
): Promise<Member> {
  const { context, page, errors } = 'take' in from ? await from.take() : await openPage(from, { locale: 'en-US' });
  const email = `${firstname.toLowerCase()}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await page.goto(`${gallery.url}/`);
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
  expect(await postFromPage(page, '/api/register', { firstname, lastname, email, password: 'profile-pass-1!' })).toBe(
    200,
  );
  await page.reload();
  await page.locator('header a[href="/profile"]').first().waitFor();
  const row = gallery.app.deps.db
    .select({ id: users.id, token: users.token })
    .from(users)
    .where(eq(users.email, email))
    .get()!;
  return { context, page, errors, email, ...row };
}

/** Two AVAILABLE trunk squares, for the piece to submit and the square to hold. */
export function availableSquares(gallery: Gallery): [string, string] {
  const rows = gallery.app.deps.db
    .select({ token: cells.token })
    .from(cells)
    .where(and(eq(cells.status, CellStatus.Available), eq(cells.type, CellType.Trunk)))
    .limit(2)
    .all();
  expect(rows.length).toBe(2);
  return [rows[0]!.token, rows[1]!.token];
}

/** Submits a piece on an available square through POST /api/cell/{cellToken} (submit=1), as the editor's SUBMIT does. */
export async function submitPiece(page: Page, cellToken: string, title: string): Promise<void> {
  const picture = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#2e6b57' } })
    .png()
    .toBuffer();
  const status = await page.evaluate(
    async ({ url, fields, pictureBase64 }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, item);
        else form.append(name, value);
      }
      const bytes = Uint8Array.from(atob(pictureBase64), (c) => c.charCodeAt(0));
      form.append('files[0]', new Blob([bytes], { type: 'image/png' }), 'piece.png');
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'X-CSRF-Token': token, 'X-Requested-With': 'XMLHttpRequest' },
        body: form,
      });
      return response.status;
    },
    {
      url: `/api/cell/${cellToken}`,
      fields: validFields({ title, submit: '1' }),
      pictureBase64: picture.toString('base64'),
    },
  );
  expect(status).toBe(200);
}

/** Reserves a square through POST /api/cell/{cellToken}/reserve, as the reserve popup's yes does. */
export async function reserveSquare(page: Page, cellToken: string): Promise<void> {
  expect(await postFromPage(page, `/api/cell/${cellToken}/reserve`, {})).toBe(200);
}

/** A seeded artist with a published piece that has active connections: someone to like and follow. */
export function seededArtist(gallery: Gallery): { token: string; name: string } {
  const { db } = gallery.app.deps;
  const row = db
    .select({ token: users.token, firstname: users.firstname, lastname: users.lastname })
    .from(users)
    .innerJoin(art, eq(art.authorId, users.id))
    .innerJoin(connections, and(eq(connections.artId, art.id), eq(connections.status, 1)))
    .where(and(eq(users.role, Role.Artist), eq(art.status, ArtStatus.Published)))
    .orderBy(desc(users.id))
    .limit(1)
    .get();
  expect(row).toBeDefined();
  return { token: row!.token, name: `${row!.firstname} ${row!.lastname}` };
}

export function likesOfUser(gallery: Gallery, token: string): number {
  const { db } = gallery.app.deps;
  const id = db.select({ id: users.id }).from(users).where(eq(users.token, token)).get()!.id;
  return db.select({ n: count() }).from(userLikes).where(eq(userLikes.likedUserId, id)).get()!.n;
}

export function followersOf(gallery: Gallery, token: string): number {
  const { db } = gallery.app.deps;
  const id = db.select({ id: users.id }).from(users).where(eq(users.token, token)).get()!.id;
  return db.select({ n: count() }).from(follows).where(eq(follows.followedId, id)).get()!.n;
}

/** Picture files in a temporary folder: a 600x300 PNG, red on its left half and blue on its right, and impostors. */
export async function pictureFiles(): Promise<{ dir: string; halves: string; textAsPng: string; tooLarge: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-avatars-'));
  const red = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#d02020' } })
    .png()
    .toBuffer();
  const halves = path.join(dir, 'halves.png');
  await sharp({ create: { width: 600, height: 300, channels: 3, background: '#2040d0' } })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toFile(halves);
  const textAsPng = path.join(dir, 'notes.png');
  fs.writeFileSync(textAsPng, 'These are my notes, not a picture.\n');
  // A real PNG's first bytes followed by padding: only its size is wrong.
  const tooLarge = path.join(dir, 'huge.png');
  const head = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  fs.writeFileSync(tooLarge, Buffer.concat([head, Buffer.alloc(8 * 1024 * 1024)]));
  return { dir, halves, textAsPng, tooLarge };
}

/** The RGB of one pixel of an image served by the gallery. */
export async function pixelOf(
  gallery: Gallery,
  imageUrl: string,
  x: number,
  y: number,
): Promise<{ width: number; height: number; rgb: number[] }> {
  const response = await fetch(new URL(imageUrl, gallery.url));
  expect(response.status).toBe(200);
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { width: info.width, height: info.height, rgb: [data[at]!, data[at + 1]!, data[at + 2]!] };
}
