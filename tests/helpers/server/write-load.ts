/**
 * A bounded write load against a real server, for the backup and crash-safety tests: uploaders each take a square
 * with a first art save and then keep saving it with a new picture (new files, new picture rows, old ones dropped),
 * while reservers race for the remaining squares. Counts what succeeded; any 5xx is collected as a failure.
 */
import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { cells } from '#drizzle/tables.ts';
import { CellStatus } from '#shared/domain.ts';
import type { Db } from '#server/db.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { artForm, validFields } from '../art-fixtures.ts';
import { encodeForm, signedInUsers, writeHeaders } from './real-server.ts';

export interface WriteLoad {
  uploaders: { cookie: string }[];
  reservers: { cookie: string }[];
  /** Tokens of the squares made AVAILABLE for the load. */
  squares: string[];
  images: Buffer[];
}

export interface LoadTally {
  saves: number;
  reservations: number;
  /** Answers the load did not expect: 5xx, or a refusal other than the reservation race's. */
  failures: string[];
}

/** Users, AVAILABLE trunk squares (rows 5 to 30 of the default tree) and a set of distinct small images. */
export async function prepareWriteLoad(
  db: Db,
  options: { uploaders: number; reservers: number; images?: number },
): Promise<WriteLoad> {
  const tree = (await getDefaultTree(db))!;
  const trunk = (
    await db
      .select({ id: cells.id, token: cells.token, row: cells.row })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), inArray(cells.status, [CellStatus.Pending, CellStatus.Available])))
      .orderBy(cells.row, cells.column)
  ).filter((cell) => cell.row >= 5 && cell.row <= 30);
  await db
    .update(cells)
    .set({ status: CellStatus.Available })
    .where(
      inArray(
        cells.id,
        trunk.map((c) => c.id),
      ),
    );
  const images = await Promise.all(
    Array.from({ length: options.images ?? 24 }, (_, i) =>
      sharp({
        create: {
          width: 96 + i,
          height: 72,
          channels: 3,
          background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
        },
      })
        .png()
        .toBuffer(),
    ),
  );
  return {
    uploaders: await signedInUsers(db, options.uploaders, 'uploader'),
    reservers: await signedInUsers(db, options.reservers, 'reserver'),
    squares: trunk.map((c) => c.token),
    images,
  };
}

async function saveArt(url: string, cookie: string, square: string, image: Buffer, title: string): Promise<Response> {
  const { body, contentType } = await encodeForm(
    artForm(validFields({ title }), [{ bytes: image, name: 'art.png', type: 'image/png' }]),
  );
  return fetch(`${url}/api/cell/${square}`, {
    method: 'POST',
    headers: { ...writeHeaders(cookie), 'content-type': contentType },
    body: new Uint8Array(body),
  });
}

/**
 * Runs the load until `stop()` says so (checked between requests) or each uploader has saved `maxSaves` times,
 * counting into `tally` as it goes.
 * Network errors end a worker quietly when `expectDeath` is set (the server is being killed).
 */
export async function runWriteLoad(
  url: string,
  load: WriteLoad,
  options: { stop: () => boolean; maxSaves?: number; expectDeath?: boolean },
  tally: LoadTally = { saves: 0, reservations: 0, failures: [] },
): Promise<LoadTally> {
  const maxSaves = options.maxSaves ?? Infinity;
  const squares = [...load.squares];
  const take = () => squares.shift();
  const guard = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (!options.expectDeath) tally.failures.push(String(error));
    }
  };

  const uploader = (user: { cookie: string }, u: number) =>
    guard(async () => {
      const square = take();
      if (!square) return;
      for (let i = 0; i < maxSaves && !options.stop(); i++) {
        const res = await saveArt(
          url,
          user.cookie,
          square,
          load.images[(u * 7 + i) % load.images.length]!,
          `Load ${u}.${i}`,
        );
        if (res.status === 200) tally.saves++;
        else tally.failures.push(`save ${res.status} ${await res.text()}`);
      }
    });

  const reserver = (user: { cookie: string }) =>
    guard(async () => {
      while (!options.stop()) {
        const square = take();
        if (!square) return;
        const res = await fetch(`${url}/api/cell/${square}/reserve`, {
          method: 'POST',
          headers: { ...writeHeaders(user.cookie), 'content-type': 'application/json' },
          body: '{}',
        });
        if (res.status === 200) {
          tally.reservations++;
          return;
        }
        const answer = (await res.json()) as { r: { error?: string } };
        if (res.status >= 500 || answer.r.error !== 'cell_taken')
          tally.failures.push(`reserve ${res.status} ${answer.r.error}`);
      }
    });

  await Promise.all([...load.uploaders.map(uploader), ...load.reservers.map(reserver)]);
  return tally;
}
