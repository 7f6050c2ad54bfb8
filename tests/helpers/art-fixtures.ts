/** Shared by the art tests: real images made with sharp, multipart bodies over HTTP, and a stored-state snapshot. */
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { art, cells, connections, pictures, reservations, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import type { Db } from '#server/db.ts';
import type { MediaStorage } from '#server/storage/index.ts';
import { storedFiles } from '#tests/helpers/server/media-files.ts';
import { newToken } from '#server/tokens.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import type { TestApp } from '#tests/helpers/server/test-app.ts';

export const png = (width = 64, height = 48, background = '#3060c0') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

export const gif = (width = 40, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: '#c03030' } })
    .gif()
    .toBuffer();

/** A JPEG carrying EXIF with a GPS position, as a phone camera writes it. */
export const jpegWithGps = () =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: '#20a040' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 300/100',
      },
    })
    .toBuffer();

/** Every text field of a valid piece, as the wizard sends them. */
export function validFields(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    title: 'Blue Hour',
    category: 'Painting',
    subject: 'Landscape',
    style: 'Impressionism',
    year: '2024',
    medium: ['Oil'],
    materials: ['Canvas'],
    width: '24',
    height: '18',
    depth: '.01',
    units: 'in',
    no_size: '0',
    keywords: ['dusk', 'river'],
    description: 'The river at dusk.',
    ai_use: 'none',
    ...overrides,
  };
}

export interface FormFile {
  bytes: Buffer;
  name: string;
  type: string;
  field?: string;
}

export function artForm(
  fields: Record<string, string | string[]>,
  files: FormFile[] = [],
  kept: (string | null)[] = [],
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, item);
    else form.append(name, value);
  }
  kept.forEach((token, i) => token && form.append(`pictures[${i}]`, token));
  files.forEach((file, i) =>
    form.append(file.field ?? `files[${i}]`, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name),
  );
  return form;
}

/** A signed-in browser (or a guest's) that has loaded a page, so it holds the CSRF cookie. */
export async function browserFor(t: TestApp, cookie?: string): Promise<BrowserLike> {
  const browser = new BrowserLike(t.server);
  if (cookie) browser.setCookie('session', cookie.slice('session='.length));
  await browser.open();
  return browser;
}

/** POSTs a multipart form the way the browser's fetch would serialise it. */
export async function postForm(t: TestApp, browser: BrowserLike, url: string, form: FormData) {
  const encoded = new Response(form);
  const payload = Buffer.from(await encoded.arrayBuffer());
  const csrf = browser.cookie('csrf')!;
  const session = browser.cookie('session');
  const res = await t.server.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: browser.ip,
    headers: {
      'content-type': encoded.headers.get('content-type')!,
      cookie: `csrf=${csrf}${session ? `; session=${session}` : ''}`,
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': csrf,
    },
  });
  return { status: res.statusCode, body: res.json() as { r: any } };
}

export async function cellAt(db: Db, treeId: number, row: number, column: number) {
  const [cell] = await db
    .select()
    .from(cells)
    .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column)))
    .limit(1);
  return cell!;
}

/** A published piece by `authorId` on (row, column), written directly (publishing belongs to review). */
export async function publishedPieceAt(
  db: Db,
  treeId: number,
  row: number,
  column: number,
  authorId: number,
  mediaKey: string,
): Promise<{ cellToken: string; artToken: string }> {
  const cell = await cellAt(db, treeId, row, column);
  const now = Date.UTC(2026, 0, 1);
  const [piece] = await db
    .insert(art)
    .values({
      token: newToken(),
      cellId: cell.id,
      authorId,
      status: ArtStatus.Published,
      title: `Neighbour ${row}/${column}`,
      year: 2020,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await db
    .insert(pictures)
    .values({ token: newToken(), artId: piece!.id, position: 0, mediaKey, width: 10, height: 10, createdAt: now });
  await db.update(cells).set({ status: CellStatus.Published, artId: piece!.id }).where(eq(cells.id, cell.id));
  return { cellToken: cell.token, artToken: piece!.token };
}

/** Everything a save could change, rows and files, to prove a refusal stored nothing. */
export async function storedState(db: Db, media: MediaStorage) {
  return {
    art: await db.select().from(art).orderBy(asc(art.id)),
    pictures: await db.select().from(pictures).orderBy(asc(pictures.id)),
    connections: await db.select().from(connections).orderBy(asc(connections.id)),
    cells: await db
      .select({ id: cells.id, status: cells.status, artId: cells.artId })
      .from(cells)
      .orderBy(asc(cells.id)),
    reservations: await db.select().from(reservations).orderBy(asc(reservations.id)),
    roles: await db.select({ id: users.id, role: users.role }).from(users).orderBy(asc(users.id)),
    files: await storedFiles(media),
  };
}
