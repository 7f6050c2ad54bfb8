/**
 * The demo tree of a new install (README.md, Run it; decision 005): a demo admin, thirty artists and their generated
 * pieces, grown cell by cell the way the product grows a tree. Pictures are rendered and stored first; every row is
 * then written in one transaction, so a crash leaves nothing half-seeded.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { and, count, eq } from 'drizzle-orm';
import {
  art,
  artLikes,
  artViews,
  cells,
  connections,
  follows,
  pictures,
  reservations,
  trees,
  userLikes,
  users,
} from '#drizzle/tables.ts';
import { RESERVATION_DAYS } from '#shared/constants.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { bandStarts, computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import sharp from 'sharp';
import { hashPassword } from '../auth/passwords.ts';
import { write, type Queryable } from '../db.ts';
import { mapAtOnce } from '../at-once.ts';
import { newToken } from '../tokens.ts';
import type { ServiceContext } from '../services/context.ts';
import { openNeighboursAfterPublish, createTreeInTx, type TreeRow, recordBulkChange } from '../services/tree/index.ts';
import { storePicture, storedPictureColumns, type StoredPicture } from '../services/media/index.ts';
import { reindexArt } from '../services/search/index.ts';
import { generatePassword } from '../services/admin/index.ts';
import { ARTWORK_FAMILY_COUNT, renderArtwork, Rng, titleFor } from './art-generator.ts';
import { planArtists } from './demo-people.ts';
import { CONNECTION_SENTENCES, pickSome, pickWeighted, planPiece, type PlannedPiece } from './demo-pieces.ts';

export interface SeedDemoOptions {
  adminEmail?: string | null;
  adminPassword?: string | null;
  artists?: number;
  pieces?: number;
  /** Fixes every random choice but tokens and passwords; random when absent. */
  seed?: number;
  /**
   * The pictures' side in pixels, 800 when absent; the first pieces' are four times as large (DEEP_ZOOM_PIECES), kept
   * for the deep zoom where that is over the large size. Small ones are for a demo whose rows matter, not its
   * pictures (a test's): at 128 the pictures of 16 pieces take a fifth of the time, and none is kept for the deep zoom.
   */
  pictureSize?: number;
}

export interface SeedResult {
  treeToken: string;
  admin: { email: string; password: string; generated: boolean };
  artists: number;
  published: number;
  reserved: number;
  available: number;
}

export const DEMO_TREE_NAME = 'The Gallery Tree';
export const DEFAULT_ADMIN_EMAIL = 'admin@gallery-tree.local';
const PICTURE_SIZE = 800;
/**
 * The first pieces' main pictures are as large as a photographed piece, 3,200 px (10 megapixels, four times the
 * large size's pixels), so the demo shows the deep zoom (decision 048): their pyramids are cut by the job once the
 * server runs, not by the seed. Two, since each adds about a second and a half of rendering and decoding.
 */
const DEEP_ZOOM_PIECES = 2;
const DEEP_ZOOM_SCALE = 4;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------------
// Pictures: rendered and stored before any row is written.

/** The demo's pictures get their WebP widths but no AVIF, which would take most of the seed's time (decision 047). */
const DEMO_PICTURES = { avif: false };

async function renderPictures(
  ctx: ServiceContext,
  piece: PlannedPiece,
  index: number,
  size: number,
): Promise<StoredPicture[]> {
  const main = await renderArtwork(piece.seed, size, 0);
  const stored = [
    index < DEEP_ZOOM_PIECES
      ? await storePicture(
          ctx.media,
          await renderArtwork(piece.seed, size * DEEP_ZOOM_SCALE, 0, { jpeg: true }),
          DEMO_PICTURES,
        )
      : await storePicture(ctx.media, main, DEMO_PICTURES),
  ];
  for (const [index, extra] of piece.extras.entries()) {
    let png: Buffer;
    if (extra === 'study') {
      png = await renderArtwork(piece.seed, size, index + 1);
    } else {
      // A close-up of part of the main picture, as an artist photographs a detail.
      const side = Math.round(size * 0.45);
      const left = (piece.seed * 131 + index * 37) % (size - side);
      const top = (piece.seed * 71 + index * 53) % (size - side);
      png = await sharp(main).extract({ left, top, width: side, height: side }).resize(size, size).png().toBuffer();
    }
    stored.push(await storePicture(ctx.media, png, DEMO_PICTURES));
  }
  return stored;
}

// ---------------------------------------------------------------------------------------------------------------
// The seed.

type GrowthCell = { id: number; row: number; column: number; status: number; type: number };
type NextCell =
  { kind: 'branch'; row: number; column: number } | { kind: 'trunk'; id: number; row: number; column: number };

/**
 * Where the next piece goes: a branch slot when branches are behind their third of the pieces (keeping the two
 * sides even), otherwise an available trunk cell, leaning upwards and towards the side whose branches lag.
 */
function chooseNextCell(
  rng: Rng,
  settings: TreeSettings,
  current: readonly GrowthCell[],
  sideCount: { left: number; right: number },
  branchesBehind: boolean,
): NextCell | null {
  const slots = computeBranchSlots(settings, gridOfCells(current));
  const openTrunk = current.filter((c) => c.type === CellType.Trunk && c.status === CellStatus.Available);
  const left = slots.filter((s) => s.column < 0);
  const right = slots.filter((s) => s.column >= settings.trunk.columns);
  const lagging = sideCount.left <= sideCount.right ? 'left' : 'right';
  const lagSlots = lagging === 'left' ? left : right;
  const leadSlots = lagging === 'left' ? right : left;
  if (branchesBehind || openTrunk.length === 0) {
    if (lagSlots.length > 0) return { kind: 'branch', ...rng.pick(lagSlots) };
    const gap = Math.abs(sideCount.left - sideCount.right);
    if (leadSlots.length > 0 && (gap < 2 || openTrunk.length === 0)) return { kind: 'branch', ...rng.pick(leadSlots) };
  }
  if (openTrunk.length === 0) return null;
  const bands = bandStarts(settings);
  const lagEdge = lagging === 'left' ? 0 : settings.trunk.columns - 1;
  const weighted = openTrunk.map((cell) => {
    const height = bands.seed - cell.row;
    let weight = cell.row < bands.seed ? 2 + 0.6 * height : cell.row < bands.roots ? 1.2 : 0.4;
    if (cell.column === lagEdge && lagSlots.length === 0 && cell.row < bands.seed) weight *= 2.5;
    return { cell, weight };
  });
  const chosen = pickWeighted(rng, weighted).cell;
  return { kind: 'trunk', id: chosen.id, row: chosen.row, column: chosen.column };
}

/** A strong password for the demo admin when ADMIN_PASSWORD is not set: 24 URL-safe characters. */
async function inChunks<T>(rows: readonly T[], insert: (chunk: T[]) => PromiseLike<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

interface Publisher {
  id: number;
  since: number;
  pieces: number;
}

interface PublishedPiece {
  artId: number;
  authorId: number;
  publishedAt: number;
}

interface GrowthPlan {
  pieces: readonly PlannedPiece[];
  stored: readonly StoredPicture[][];
  publishers: Publisher[];
  firstPublish: number;
  lastPublish: number;
}

/**
 * Publishes the pieces one by one as the product would: each takes an available trunk cell or a branch slot,
 * links to published neighbours, then opens the trunk around it.
 */
async function growTree(tx: Queryable, rng: Rng, tree: TreeRow, plan: GrowthPlan): Promise<PublishedPiece[]> {
  const settings = tree.settings as TreeSettings;
  const published: PublishedPiece[] = [];
  const publishedAtByArt = new Map<number, number>();
  const sideCount = { left: 0, right: 0 };
  let branchCount = 0;
  for (const [i, piece] of plan.pieces.entries()) {
    const publishedAt = Math.round(
      plan.firstPublish + ((i + rng.range(0.2, 0.8)) / plan.pieces.length) * (plan.lastPublish - plan.firstPublish),
    );
    const current = await tx
      .select({
        id: cells.id,
        row: cells.row,
        column: cells.column,
        status: cells.status,
        type: cells.type,
        artId: cells.artId,
      })
      .from(cells)
      .where(eq(cells.treeId, tree.id));
    const next = chooseNextCell(rng, settings, current, sideCount, branchCount < (i + 1) / 3);
    if (!next) break;

    const position = { row: next.row, column: next.column };
    let cellId: number;
    if (next.kind === 'branch') {
      sideCount[next.column < 0 ? 'left' : 'right']++;
      branchCount++;
      // As in the product: the branch cell is created when someone reserves the slot, then published.
      const reservedAt = publishedAt - 10 * DAY;
      const [created] = await tx
        .insert(cells)
        .values({
          token: newToken(),
          treeId: tree.id,
          ...position,
          type: CellType.Branch,
          status: CellStatus.Reserved,
          createdAt: reservedAt,
          updatedAt: reservedAt,
        })
        .returning({ id: cells.id });
      cellId = created!.id;
    } else {
      cellId = next.id;
    }

    // Authors had joined a fortnight before; pieces spread over many artists rather than piling on a few.
    const eligible = plan.publishers.filter((p) => p.since < publishedAt - 14 * DAY);
    const pool = eligible.length > 0 ? eligible : plan.publishers;
    const author = pickWeighted(
      rng,
      pool.map((p) => ({ p, weight: 1 / (1 + p.pieces) ** 2 })),
    ).p;
    author.pieces++;

    const pics = plan.stored[i]!;
    const createdAt = publishedAt - rng.int(5, 12) * DAY;
    const submittedAt = publishedAt - rng.int(1, 4) * DAY - rng.int(0, 20) * HOUR;
    const [inserted] = await tx
      .insert(art)
      .values({
        token: newToken(),
        cellId,
        authorId: author.id,
        status: ArtStatus.Published,
        title: piece.title,
        year: Math.min(piece.year, new Date(publishedAt).getUTCFullYear()),
        category: piece.category,
        subject: piece.subject,
        style: piece.style,
        medium: piece.medium,
        materials: piece.materials,
        keywords: piece.keywords,
        description: piece.description,
        width: piece.width,
        height: piece.height,
        depth: piece.depth,
        units: piece.units,
        noSize: piece.noSize,
        aiUse: piece.aiUse,
        dominantColor: pics[0]!.dominantColor,
        submittedAt,
        publishedAt,
        createdAt,
        updatedAt: publishedAt,
      })
      .returning({ id: art.id });
    const artId = inserted!.id;
    await tx.insert(pictures).values(
      pics.map((pic, index) => ({
        token: newToken(),
        artId,
        position: index,
        ...storedPictureColumns(pic),
        createdAt,
      })),
    );

    const neighbours = current.filter(
      (c) =>
        c.status === CellStatus.Published &&
        Math.abs(c.row - position.row) <= 1 &&
        Math.abs(c.column - position.column) <= 1,
    );
    for (const neighbour of pickSome(rng, neighbours, 1, 3)) {
      const [linked] = await tx.select({ title: art.title }).from(art).where(eq(art.id, neighbour.artId!)).limit(1);
      const title = linked?.title ?? 'its neighbour';
      const linkedAt = Math.min(
        publishedAt,
        Math.max(submittedAt, (publishedAtByArt.get(neighbour.artId!) ?? 0) + HOUR),
      );
      await tx.insert(connections).values({
        token: newToken(),
        artId,
        nextCellId: neighbour.id,
        description: rng.pick(CONNECTION_SENTENCES)(title),
        status: 1,
        createdAt: linkedAt,
        updatedAt: linkedAt,
      });
    }

    await tx
      .update(cells)
      .set({ status: CellStatus.Published, artId, updatedAt: publishedAt })
      .where(eq(cells.id, cellId));
    await openNeighboursAfterPublish(tx, tree.id, position.row, position.column, publishedAt);
    await reindexArt(tx, artId);
    published.push({ artId, authorId: author.id, publishedAt });
    publishedAtByArt.set(artId, publishedAt);
  }
  return published;
}

/** Newcomers hold a few available trunk squares, each with a draft that has only a title so far. */
async function reserveForNewcomers(
  tx: Queryable,
  rng: Rng,
  treeId: number,
  newcomerIds: readonly number[],
  titleSeed: number,
  now: number,
): Promise<void> {
  const open = await tx
    .select({ id: cells.id })
    .from(cells)
    .where(and(eq(cells.treeId, treeId), eq(cells.type, CellType.Trunk), eq(cells.status, CellStatus.Available)));
  const holders = newcomerIds.slice(0, Math.min(rng.int(3, 5), open.length));
  const held = rng.shuffle(open).slice(0, holders.length);
  for (const [i, userId] of holders.entries()) {
    const cellId = held[i]!.id;
    const reservedAt = now - rng.int(1, 6) * DAY - rng.int(0, 23) * HOUR;
    const draftAt = reservedAt + HOUR;
    const [draft] = await tx
      .insert(art)
      .values({
        token: newToken(),
        cellId,
        authorId: userId,
        status: ArtStatus.Draft,
        title: titleFor(titleSeed + i),
        createdAt: draftAt,
        updatedAt: draftAt,
      })
      .returning({ id: art.id });
    await tx.insert(reservations).values({
      token: newToken(),
      userId,
      cellId,
      state: 'active',
      expiresAt: reservedAt + RESERVATION_DAYS * DAY,
      reminderCount: 0,
      createdAt: reservedAt,
      updatedAt: reservedAt,
    });
    await tx
      .update(cells)
      .set({ status: CellStatus.Reserved, artId: draft!.id, updatedAt: reservedAt })
      .where(eq(cells.id, cellId));
  }
}

/** Likes, follows and views, each dated after both sides existed, so every count on the site is above zero. */
async function addActivity(
  tx: Queryable,
  rng: Rng,
  people: readonly { id: number; since: number }[],
  published: readonly PublishedPiece[],
  now: number,
): Promise<void> {
  const after = (from: number) => Math.round(from + rng.range(0.05, 1) * Math.max(HOUR, now - from));
  const likeRows: (typeof artLikes.$inferInsert)[] = [];
  const followRows: (typeof follows.$inferInsert)[] = [];
  const userLikeRows: (typeof userLikes.$inferInsert)[] = [];
  for (const person of people) {
    const likeable = published.filter((p) => p.authorId !== person.id);
    for (const piece of pickSome(rng, likeable, 0, 10)) {
      likeRows.push({
        userId: person.id,
        artId: piece.artId,
        createdAt: after(Math.max(piece.publishedAt, person.since)),
      });
    }
    const others = people.filter((o) => o.id !== person.id);
    for (const other of pickSome(rng, others, 0, 4)) {
      followRows.push({
        followerId: person.id,
        followedId: other.id,
        createdAt: after(Math.max(person.since, other.since)),
      });
    }
    for (const other of pickSome(rng, others, 0, 2)) {
      userLikeRows.push({
        userId: person.id,
        likedUserId: other.id,
        createdAt: after(Math.max(person.since, other.since)),
      });
    }
  }
  const viewRows: (typeof artViews.$inferInsert)[] = [];
  for (const piece of published) {
    for (let v = rng.int(3, 40); v > 0; v--) {
      viewRows.push({
        artId: piece.artId,
        viewerKey: `visitor:${randomBytes(12).toString('hex')}`,
        createdAt: after(piece.publishedAt),
      });
    }
  }
  await inChunks(likeRows, (chunk) => tx.insert(artLikes).values(chunk));
  await inChunks(followRows, (chunk) => tx.insert(follows).values(chunk));
  await inChunks(userLikeRows, (chunk) => tx.insert(userLikes).values(chunk));
  await inChunks(viewRows, (chunk) => tx.insert(artViews).values(chunk));
}

/** Seeds the demo tree into a database with no tree yet; see the module summary. */
export async function seedDemo(ctx: ServiceContext, options: SeedDemoOptions = {}): Promise<SeedResult> {
  const { db, log } = ctx;
  const started = performance.now();
  const now = ctx.clock.now();
  const rng = new Rng(options.seed ?? randomInt(0, 2 ** 31));
  const artistCount = Math.max(1, options.artists ?? 30);
  const pieceCount = Math.max(0, options.pieces ?? 72);

  const adminEmail = (options.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const generated = !options.adminPassword;
  const adminPassword = options.adminPassword || generatePassword();

  // The demo's history spans the past year: the tree is planted, artists join, pieces are published in turn.
  const planted = now - 365 * DAY;
  const artists = planArtists(rng, artistCount, planted, now);
  const currentYear = new Date(now).getUTCFullYear();
  // Consecutive seeds walk through the composition families, so the demo shows all of them.
  const artBase = rng.int(0, 1_000_000) * ARTWORK_FAMILY_COUNT;
  const pieces = Array.from({ length: pieceCount }, (_, i) => planPiece(rng, artBase + i, currentYear));

  log.info(`seed: rendering ${pieceCount} artworks`);
  // sharp's work is CPU-bound: about one picture in flight a core.
  const concurrency = Math.min(4, Math.max(2, availableParallelism()));
  const [stored, adminHash, artistHashes] = await Promise.all([
    mapAtOnce(
      pieces.map((piece, index) => ({ piece, index })),
      concurrency,
      ({ piece, index }) => renderPictures(ctx, piece, index, options.pictureSize ?? PICTURE_SIZE),
    ),
    hashPassword(adminPassword, true),
    // Nobody logs in as a demo artist: each gets a long random password nobody knows.
    Promise.all(artists.map(() => hashPassword(generatePassword(), true))),
  ]);
  log.info(`seed: pictures stored in ${Math.round(performance.now() - started)} ms, writing rows`);

  const treeToken = await write(db, async (tx) => {
    const tree = await createTreeInTx(tx, planted, DEMO_TREE_NAME);
    const [admin] = await tx
      .insert(users)
      .values({
        token: newToken(),
        email: adminEmail,
        passwordHash: adminHash,
        firstname: 'Gallery',
        lastname: 'Staff',
        role: Role.Admin,
        description: 'Keeps the tree tidy: reviews new pieces and answers questions.',
        createdAt: planted,
        updatedAt: planted,
      })
      .returning({ id: users.id });
    const people: { artist: (typeof artists)[number]; id: number; since: number; pieces: number }[] = [];
    for (const [i, artist] of artists.entries()) {
      const [person] = await tx
        .insert(users)
        .values({ ...artist.row, token: newToken(), passwordHash: artistHashes[i]!, role: Role.Artist })
        .returning({ id: users.id });
      people.push({ artist, id: person!.id, since: artist.row.createdAt, pieces: 0 });
    }
    // The newest sign-ups hold reservations and have published nothing yet.
    const publishers = people.filter((p) => !p.artist.newcomer);
    const newcomerIds = people.filter((p) => p.artist.newcomer).map((p) => p.id);

    const published = await growTree(tx, rng, tree, {
      pieces,
      stored,
      publishers: publishers.length > 0 ? publishers : [{ id: admin!.id, since: planted, pieces: 0 }],
      firstPublish: planted + 21 * DAY,
      lastPublish: now - 8 * DAY,
    });
    await reserveForNewcomers(tx, rng, tree.id, newcomerIds, artBase + pieceCount, now);
    await addActivity(tx, rng, [{ id: admin!.id, since: planted }, ...people], published, now);
    await recordBulkChange(tx, tree.id, now);
    return tree.token;
  });

  const result = await countSeed(ctx, treeToken, { email: adminEmail, password: adminPassword, generated });
  log.info(
    `seed: done in ${Math.round(performance.now() - started)} ms (${result.published} published, ${result.available} available)`,
  );
  return result;
}

async function countSeed(ctx: ServiceContext, treeToken: string, admin: SeedResult['admin']): Promise<SeedResult> {
  const { db } = ctx;
  const [tree] = await db.select({ id: trees.id }).from(trees).where(eq(trees.token, treeToken)).limit(1);
  const cellsWith = async (status: CellStatus) =>
    (
      await db
        .select({ n: count() })
        .from(cells)
        .where(and(eq(cells.treeId, tree!.id), eq(cells.status, status)))
    )[0]!.n;
  const [artists] = await db.select({ n: count() }).from(users).where(eq(users.role, Role.Artist));
  return {
    treeToken,
    admin,
    artists: artists!.n,
    published: await cellsWith(CellStatus.Published),
    reserved: await cellsWith(CellStatus.Reserved),
    available: await cellsWith(CellStatus.Available),
  };
}

/** Tells the operator what was seeded and how to sign in as the demo admin, once. */
export function printSeedSummary(result: SeedResult, log: (line: string) => void = console.log): void {
  const passwordLine = result.admin.generated
    ? `  password: ${result.admin.password}`
    : '  password: the one set in ADMIN_PASSWORD';
  const note = result.admin.generated
    ? '  This password is shown only this once: write it down now.'
    : '  (not printed: it came from the environment)';
  const lines = ['  Demo admin', `  email:    ${result.admin.email}`, passwordLine, note];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  log(
    `Seeded the demo tree: ${result.published} pieces by ${result.artists} artists, ` +
      `${result.reserved} squares reserved, ${result.available} open for new art.`,
  );
  log(`+${'-'.repeat(width)}+`);
  for (const line of lines) log(`|${line.padEnd(width)}|`);
  log(`+${'-'.repeat(width)}+`);
}
