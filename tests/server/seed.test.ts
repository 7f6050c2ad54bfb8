import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { art, cells, connections, pictures, reservations, trees, users } from '#drizzle/schema.ts';
import { verifyPassword } from '#server/auth/passwords.ts';
import { systemClock } from '#server/clock.ts';
import { testConfig } from '#server/config.ts';
import { closeDatabase, type Db, openDatabase, write } from '#server/db.ts';
import { createMediaStorage } from '#server/storage/index.ts';
import type { ServiceContext } from '#server/services/context.ts';
import { openNeighboursAfterPublish } from '#server/services/tree/growth.ts';
import { mediaNameOf } from '#server/services/display/media-names.ts';
import { LARGE_SIZE } from '#server/services/media/images.ts';
import { printSeedSummary, seedDemo, type SeedResult } from '#server/seed/demo.ts';
import { generateSyntheticTree, MAX_SYNTHETIC_CELLS, syntheticSettings } from '#server/seed/synthetic.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { bandOfRow, inBranchArea, isTrunkColumn, totalRows, type TreeSettings } from '#shared/tree/geometry.ts';

const quietLog = { info() {}, warn() {}, error() {}, debug() {} } as unknown as ServiceContext['log'];
const folders: string[] = [];

function freshContext(): ServiceContext {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-'));
  folders.push(dir);
  fs.mkdirSync(path.join(dir, 'media'));
  return {
    db: openDatabase(path.join(dir, 'gallery.db')),
    clock: systemClock,
    media: createMediaStorage({ kind: 'folder', dir: path.join(dir, 'media') }),
    config: testConfig(dir),
    log: quietLog,
  };
}

const contexts: ServiceContext[] = [];
afterAll(() => {
  for (const ctx of contexts) closeDatabase(ctx.db);
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function adjacent(a: { row: number; column: number }, b: { row: number; column: number }): boolean {
  return Math.max(Math.abs(a.row - b.row), Math.abs(a.column - b.column)) === 1;
}

describe('the demo seed', () => {
  let ctx: ServiceContext;
  let result: SeedResult;
  let treeCells: (typeof cells.$inferSelect)[];
  let settings: TreeSettings;

  beforeAll(async () => {
    ctx = freshContext();
    contexts.push(ctx);
    // Small pictures: what is looked at here is rows and files, not pixels; the demo's own sizes, and its pieces
    // kept for the deep zoom, are the second seed's below.
    result = await seedDemo(ctx, { pieces: 60, pictureSize: 128 });
    const tree = ctx.db.select().from(trees).where(eq(trees.token, result.treeToken)).get()!;
    settings = tree.settings as TreeSettings;
    treeCells = ctx.db.select().from(cells).where(eq(cells.treeId, tree.id)).all();
    // Sixty pieces' pictures drawn and encoded with sharp: at the demo's 800 px 24 s alone, and over three minutes
    // beside the rest of the checks on a loaded two-core machine.
  }, 300_000);

  it('publishes at least 60 pieces, each with published art, stored pictures and a dominant colour', async () => {
    const published = treeCells.filter((c) => c.status === CellStatus.Published);
    expect(published.length).toBeGreaterThanOrEqual(60);
    expect(result.published).toBe(published.length);
    for (const cell of published) {
      const piece = ctx.db.select().from(art).where(eq(art.id, cell.artId!)).get()!;
      expect(piece.status).toBe(ArtStatus.Published);
      expect(piece.cellId).toBe(cell.id);
      expect(piece.dominantColor).not.toBeNull();
      expect(piece.title.length).toBeGreaterThan(0);
      expect(piece.keywords.length).toBeGreaterThanOrEqual(2);
      expect(piece.medium.length).toBeGreaterThanOrEqual(1);
      expect(piece.publishedAt!).toBeGreaterThan(piece.submittedAt!);
      expect(piece.submittedAt!).toBeGreaterThan(piece.createdAt);
      const pics = ctx.db.select().from(pictures).where(eq(pictures.artId, piece.id)).all();
      expect(pics.length).toBeGreaterThanOrEqual(1);
      expect(pics.length).toBeLessThanOrEqual(3);
      expect(pics.map((p) => p.position).sort()).toEqual(pics.map((_, i) => i));
      for (const pic of pics) {
        expect(await ctx.media.exists(mediaNameOf(pic.mediaKey, 'thumb'))).toBe(true);
        expect(await ctx.media.exists(mediaNameOf(pic.mediaKey, 'large'))).toBe(true);
      }
    }
  });

  it('gives the pieces many different dominant colours', () => {
    const colours = new Set(
      ctx.db
        .select({ c: art.dominantColor })
        .from(art)
        .where(eq(art.status, ArtStatus.Published))
        .all()
        .map((r) => r.c),
    );
    expect(colours.size).toBeGreaterThanOrEqual(20);
  });

  it('grows branches on both sides of the trunk, all inside the branch area', () => {
    const branches = treeCells.filter((c) => c.type === CellType.Branch);
    expect(branches.length).toBeGreaterThan(0);
    for (const cell of branches) expect(inBranchArea(settings, cell.row, cell.column)).toBe(true);
    expect(branches.some((c) => c.column < 0)).toBe(true);
    expect(branches.some((c) => c.column >= settings.trunk.columns)).toBe(true);
  });

  it('connects pieces only to published neighbours', () => {
    const byId = new Map(treeCells.map((c) => [c.id, c]));
    const rows = ctx.db
      .select({
        next: connections.nextCellId,
        cellId: art.cellId,
        status: connections.status,
        description: connections.description,
      })
      .from(connections)
      .innerJoin(art, eq(art.id, connections.artId))
      .all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const from = byId.get(row.cellId)!;
      const to = byId.get(row.next)!;
      expect(to.status).toBe(CellStatus.Published);
      expect(adjacent(from, to)).toBe(true);
      expect(row.status).toBe(1);
      expect(row.description.length).toBeGreaterThan(10);
    }
  });

  it('leaves a few squares reserved by artists with a draft and nothing published', () => {
    const active = ctx.db.select().from(reservations).where(eq(reservations.state, 'active')).all();
    expect(active.length).toBeGreaterThanOrEqual(3);
    expect(active.length).toBeLessThanOrEqual(5);
    expect(result.reserved).toBe(active.length);
    for (const reservation of active) {
      const cell = treeCells.find((c) => c.id === reservation.cellId)!;
      expect(cell.status).toBe(CellStatus.Reserved);
      const draft = ctx.db.select().from(art).where(eq(art.id, cell.artId!)).get()!;
      expect(draft.status).toBe(ArtStatus.Draft);
      expect(draft.authorId).toBe(reservation.userId);
      expect(reservation.expiresAt).toBeGreaterThan(Date.now());
      const published = ctx.db
        .select()
        .from(art)
        .where(and(eq(art.authorId, reservation.userId), eq(art.status, ArtStatus.Published)))
        .all();
      expect(published).toHaveLength(0);
    }
  });

  it('leaves available squares and no pending trunk square beside a published one', () => {
    expect(treeCells.some((c) => c.status === CellStatus.Available)).toBe(true);
    expect(result.available).toBe(treeCells.filter((c) => c.status === CellStatus.Available).length);
    const published = treeCells.filter((c) => c.status === CellStatus.Published);
    const pendingTrunk = treeCells.filter((c) => c.type === CellType.Trunk && c.status === CellStatus.Pending);
    for (const cell of pendingTrunk) expect(published.some((p) => adjacent(p, cell))).toBe(false);
  });

  it('creates the demo admin, whose generated password verifies', async () => {
    expect(result.admin.generated).toBe(true);
    expect(result.admin.email).toBe('admin@gallery-tree.local');
    expect(result.admin.password.length).toBeGreaterThanOrEqual(16);
    const admin = ctx.db.select().from(users).where(eq(users.email, result.admin.email)).get()!;
    expect(admin.role).toBe(Role.Admin);
    expect(await verifyPassword(admin.passwordHash, result.admin.password)).toBe(true);
  });

  it('creates thirty artists with profiles', () => {
    const artists = ctx.db.select().from(users).where(eq(users.role, Role.Artist)).all();
    expect(artists).toHaveLength(30);
    expect(result.artists).toBe(30);
    expect(new Set(artists.map((a) => a.email)).size).toBe(30);
    for (const artist of artists) {
      expect(artist.email).toMatch(/^[a-z0-9]+\.[a-z0-9]+@demo\.gallery-tree\.local$/);
      expect(artist.description.length).toBeGreaterThan(20);
      expect(artist.country).toMatch(/^[A-Z]{2}$/);
      if (artist.country === 'US') expect(artist.state).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('writes every time as a whole millisecond, as PostgreSQL’s bigint columns take them', () => {
    const fractions = ctx.db.$client
      .prepare(
        `select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' and name not like '%search%'`,
      )
      .pluck()
      .all()
      .flatMap((table) =>
        (
          ctx.db.$client
            .prepare(`select name from pragma_table_info(?) where type = 'INTEGER'`)
            .pluck()
            .all(table) as string[]
        ).map((column) => ({
          at: `${table as string}.${column}`,
          n: ctx.db.$client
            .prepare(`select count(*) from "${table as string}" where typeof("${column}") = 'real'`)
            .pluck()
            .get() as number,
        })),
      )
      .filter(({ n }) => n > 0);
    expect(fractions).toEqual([]);
  });

  it('prints the generated password once, framed', () => {
    const lines: string[] = [];
    printSeedSummary(result, (line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toContain(result.admin.password);
    expect(text).toContain('only this once');
  });

  it('does not print a password that came from ADMIN_PASSWORD', () => {
    const lines: string[] = [];
    printSeedSummary(
      { ...result, admin: { email: 'a@b.test', password: 'from-the-env-123', generated: false } },
      (line) => lines.push(line),
    );
    expect(lines.join('\n')).not.toContain('from-the-env-123');
    expect(lines.join('\n')).toContain('ADMIN_PASSWORD');
  });

  it('gives a second fresh database different tokens and uses the given admin credentials', async () => {
    const other = freshContext();
    contexts.push(other);
    const second = await seedDemo(other, {
      pieces: 4,
      artists: 6,
      adminEmail: 'Boss@Example.test',
      adminPassword: 'a fine password',
    });
    expect(second.treeToken).not.toBe(result.treeToken);
    expect(second.admin).toEqual({ email: 'boss@example.test', password: 'a fine password', generated: false });
    const firstTokens = new Set(
      ctx.db
        .select({ t: cells.token })
        .from(cells)
        .all()
        .map((r) => r.t),
    );
    const secondTokens = other.db
      .select({ t: cells.token })
      .from(cells)
      .all()
      .map((r) => r.t);
    expect(secondTokens.some((t) => firstTokens.has(t))).toBe(false);
    const admin = other.db.select().from(users).where(eq(users.role, Role.Admin)).get()!;
    expect(await verifyPassword(admin.passwordHash, 'a fine password')).toBe(true);
    // The demo's pictures are 800 px; the first two pieces' main pictures are 3,200 px, stored at the large size and
    // kept for the deep zoom, whose pyramids the job cuts once the server runs.
    const stored = other.db.select().from(pictures).all();
    const deep = stored.filter((p) => p.pyramid !== 'none');
    expect(deep.map((p) => [p.width, p.height, p.pyramid, p.position])).toEqual([
      [LARGE_SIZE, LARGE_SIZE, 'building', 0],
      [LARGE_SIZE, LARGE_SIZE, 'building', 0],
    ]);
    for (const p of deep) expect(await other.media.exists(p.pyramidSource!)).toBe(true);
    expect(stored.filter((p) => p.pyramid === 'none').map((p) => `${p.width}×${p.height}`)).toEqual(
      Array(stored.length - 2).fill('800×800'),
    );
  });

  it('draws the pictures at the size asked for, and keeps none for the deep zoom when the largest is small', () => {
    const stored = ctx.db.select().from(pictures).all();
    const sides = stored.map((p) => `${p.width}×${p.height}`);
    // The first two pieces' main pictures are four times as large: 512 px, no larger than the large size.
    expect(sides.filter((side) => side === '512×512')).toHaveLength(2);
    expect(sides.filter((side) => side !== '512×512' && side !== '128×128')).toEqual([]);
    expect(stored.filter((p) => p.pyramid !== 'none')).toEqual([]);
  });
});

describe('growth after a publish', () => {
  let db: Db;
  beforeAll(() => {
    const ctx = freshContext();
    contexts.push(ctx);
    db = ctx.db;
  });

  it('opens exactly the pending trunk cells around the published one', async () => {
    const tree = await createTree(db, 1000, 'Growth');
    const at = (row: number, column: number) =>
      db
        .select()
        .from(cells)
        .where(and(eq(cells.treeId, tree.id), eq(cells.row, row), eq(cells.column, column)))
        .get()!;
    // Row 32 is the trunk row just above the seed rows (33, 34), which start AVAILABLE.
    db.update(cells)
      .set({ status: CellStatus.Published })
      .where(eq(cells.id, at(33, 0).id))
      .run();
    db.update(cells)
      .set({ status: CellStatus.Reserved })
      .where(eq(cells.id, at(32, 1).id))
      .run();
    const opened = await openNeighboursAfterPublish(db, tree.id, 33, 0, 5000);
    expect(opened).toEqual([at(32, 0).id]);
    expect(at(32, 0)).toMatchObject({ status: CellStatus.Available, updatedAt: 5000 });
    expect(at(32, 1).status).toBe(CellStatus.Reserved);
    expect(at(31, 0).status).toBe(CellStatus.Pending);
    expect(await openNeighboursAfterPublish(db, tree.id, 33, 0, 6000)).toEqual([]);
  });

  it('works inside a transaction and leaves other trees alone', async () => {
    const a = await createTree(db, 1000, 'A');
    const b = await createTree(db, 1000, 'B');
    const opened = await write(db, async (tx) => openNeighboursAfterPublish(tx, a.id, 20, 2, 7000));
    expect(opened).toHaveLength(8);
    const changed = db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, b.id), eq(cells.status, CellStatus.Available)))
      .all();
    expect(changed).toHaveLength(10);
  });
});

describe('synthetic trees', () => {
  it('fills a new tree with exactly 5,000 cells at unique positions inside its geometry', async () => {
    const ctx = freshContext();
    contexts.push(ctx);
    const progress: number[] = [];
    const result = await generateSyntheticTree(ctx.db, { cells: 5000, onProgress: (done) => progress.push(done) });
    expect(result.cells).toBe(5000);
    const tree = ctx.db.select().from(trees).where(eq(trees.token, result.treeToken)).get()!;
    // One bulk change in the log (the version is its sequence number, 1 in a new database): older views resync.
    expect(tree.changesFrom).toBe(tree.version);
    const settings = tree.settings as TreeSettings;
    expect(settings).toEqual(syntheticSettings(5000));
    const rows = ctx.db.select().from(cells).where(eq(cells.treeId, tree.id)).all();
    expect(rows).toHaveLength(5000);
    expect(new Set(rows.map((c) => `${c.row},${c.column}`)).size).toBe(5000);
    expect(new Set(rows.map((c) => c.token)).size).toBe(5000);
    for (const cell of rows) {
      expect(cell.row).toBeGreaterThanOrEqual(0);
      expect(cell.row).toBeLessThan(totalRows(settings));
      if (isTrunkColumn(settings, cell.column)) expect(cell.type).toBe(CellType.Trunk);
      else {
        expect(cell.type).toBe(CellType.Branch);
        expect(inBranchArea(settings, cell.row, cell.column)).toBe(true);
      }
    }
    const statuses = new Set(rows.map((c) => c.status));
    for (const status of [CellStatus.Pending, CellStatus.Reserved, CellStatus.Published, CellStatus.Available]) {
      expect(statuses.has(status)).toBe(true);
    }
    // Growth starts at the ground: the top rows are pending.
    expect(
      rows.filter((c) => bandOfRow(settings, c.row) === 'crown').every((c) => c.status === CellStatus.Pending),
    ).toBe(true);
    const published = rows.filter((c) => c.status === CellStatus.Published);
    expect(published.length).toBeGreaterThan(2500);
    const colours = ctx.db.select({ c: art.dominantColor }).from(art).where(eq(art.status, ArtStatus.Published)).all();
    expect(colours).toHaveLength(published.length);
    expect(new Set(colours.map((r) => r.c)).size).toBeGreaterThan(500);
    expect(progress.length).toBeGreaterThanOrEqual(50);
    expect(progress.at(-1)).toBe(5000);
  });

  it('handles the smallest trees and refuses sizes out of range', async () => {
    const ctx = freshContext();
    contexts.push(ctx);
    for (const size of [1, 7, 80, 81]) {
      const result = await generateSyntheticTree(ctx.db, { cells: size });
      const tree = ctx.db.select().from(trees).where(eq(trees.token, result.treeToken)).get()!;
      expect(ctx.db.select().from(cells).where(eq(cells.treeId, tree.id)).all()).toHaveLength(size);
    }
    await expect(generateSyntheticTree(ctx.db, { cells: 0 })).rejects.toThrow(RangeError);
    await expect(generateSyntheticTree(ctx.db, { cells: MAX_SYNTHETIC_CELLS + 1 })).rejects.toThrow(RangeError);
    await expect(generateSyntheticTree(ctx.db, { cells: 2.5 })).rejects.toThrow(RangeError);
  });
});
