/**
 * Synthetic trees for benchmarks (`npm run generate`, README.md): a new tree with exactly N cells, up to a million,
 * whose colours vary smoothly so the canvas shows something tree-like. No pictures; one author owns every piece.
 */
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { eq, max } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { art, cells, trees, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { CATEGORY_OPTIONS, STYLE_OPTIONS, SUBJECT_OPTIONS } from '#shared/constants.ts';
import { bandStarts, inBranchArea, totalRows, type TreeSettings } from '#shared/tree/geometry.ts';
import { IMMEDIATE, type Db } from '../db.ts';
import { recordBulkChange } from '../services/tree/index.ts';
import { mulberry32, titleFor } from './art-generator.ts';

export const MAX_SYNTHETIC_CELLS = 10_000_000;

export interface SyntheticTreeOptions {
  cells: number;
  name?: string;
  now?: number;
  /** Called about every 1% and once at the end. */
  onProgress?: (done: number, total: number) => void;
}

export interface SyntheticTreeResult {
  treeToken: string;
  treeId: number;
  cells: number;
}

const BATCH = 1000;
/** Rows a transaction: a few large transactions, not one giant one, so the WAL stays a sensible size. */
const TRANSACTION_CELLS = 100_000;
const DAY = 24 * 60 * 60 * 1000;
const TOKEN_BYTES = 16;

const TRUNK_COLUMNS = 5;
const CROWN_ROWS = 3;
const SEED_ROWS = 2;
const ROOT_ROWS = 10;
const BRANCH_MIN_COLUMN = -15;
const BRANCH_MAX_COLUMN = 19;
const BRANCH_COLUMNS = BRANCH_MAX_COLUMN - BRANCH_MIN_COLUMN + 1 - TRUNK_COLUMNS;
/** The first piece was published this long ago, the last this long ago. */
const FIRST_PUBLISH_AGO = 365 * DAY;
const LAST_PUBLISH_AGO = 2 * DAY;
/** The outermost branch squares follow the trunk beside them by this share of the trunk's growth. */
const BRANCH_LAG = 0.15;

/**
 * The smallest geometry holding N cells: trunk and branch columns as the default tree, as many trunk rows as
 * needed, and, on trees past a few thousand cells, a few bare trunk rows under the branches.
 */
export function syntheticSettings(cellCount: number): TreeSettings {
  const fixed = (CROWN_ROWS + SEED_ROWS + ROOT_ROWS) * TRUNK_COLUMNS;
  const bare = cellCount > 2000 ? 6 : 0;
  const trunkRows = Math.max(
    bare + 1,
    Math.ceil((cellCount - fixed + BRANCH_COLUMNS * bare) / (TRUNK_COLUMNS + BRANCH_COLUMNS)),
  );
  const lastBranchRow = CROWN_ROWS + trunkRows - 1 - bare;
  return {
    trunk: { columns: TRUNK_COLUMNS, seed_rows: SEED_ROWS, root_rows: ROOT_ROWS, trunk_rows: trunkRows },
    crown: { rows: CROWN_ROWS },
    branch: {
      min_row: CROWN_ROWS,
      max_row: lastBranchRow,
      min_column: BRANCH_MIN_COLUMN,
      max_column: BRANCH_MAX_COLUMN,
      start_row: lastBranchRow,
    },
  };
}

/** Columns of a row in the order they are filled: trunk from its centre out, branches from the trunk out. */
function fillRanks(settings: TreeSettings): Map<number, number> {
  const ranks = new Map<number, number>();
  const centre = Math.floor(settings.trunk.columns / 2);
  for (let d = 0; d <= centre + 1; d++) {
    for (const column of [centre - d, centre + d]) {
      if (column >= 0 && column < settings.trunk.columns && !ranks.has(column)) ranks.set(column, ranks.size);
    }
  }
  let branchRank = 0;
  for (let d = 1; d <= settings.branch.max_column - settings.branch.min_column; d++) {
    for (const column of [-d, settings.trunk.columns - 1 + d]) {
      if (column >= settings.branch.min_column && column <= settings.branch.max_column) ranks.set(column, branchRank++);
    }
  }
  return ranks;
}

/** How many trunk and branch cells each row gets: trunk cells bottom-up first, then branches bottom-up. */
function planRows(settings: TreeSettings, cellCount: number): { trunk: Int32Array; branch: Int32Array } {
  const rows = totalRows(settings);
  const trunk = new Int32Array(rows);
  const branch = new Int32Array(rows);
  let remaining = cellCount;
  for (let row = rows - 1; row >= 0 && remaining > 0; row--) {
    trunk[row] = Math.min(settings.trunk.columns, remaining);
    remaining -= trunk[row]!;
  }
  for (let row = settings.branch.max_row; row >= settings.branch.min_row && remaining > 0; row--) {
    let width = 0;
    for (let column = settings.branch.min_column; column <= settings.branch.max_column; column++) {
      if (inBranchArea(settings, row, column)) width++;
    }
    branch[row] = Math.min(width, remaining);
    remaining -= branch[row]!;
  }
  if (remaining > 0) throw new Error(`The synthetic geometry holds ${cellCount - remaining} cells, not ${cellCount}.`);
  return { trunk, branch };
}

/**
 * When the square at (row, column) was published, in a believable growth order: outwards from the seed band (up the
 * trunk and down into the roots), each branch square behind the trunk beside it, the further out the later; faster
 * as the tree and its community grow (time goes as the square root of growth). Within one step of growth the
 * squares follow column order, so the replay's history keeps a regular pattern that compresses well.
 */
function growthClock(
  settings: TreeSettings,
  now: number,
  frontierHeight: number,
): (row: number, column: number) => number {
  const bands = bandStarts(settings);
  const rows = totalRows(settings);
  const frontierRow = Math.round((rows - 1) * (1 - frontierHeight));
  const reach = Math.max(bands.seed - frontierRow, settings.trunk.root_rows, 1);
  const widest = Math.max(-settings.branch.min_column, settings.branch.max_column - settings.trunk.columns + 1, 1);
  const lag = Math.max(1, Math.round((BRANCH_LAG * reach) / widest));
  const columns = settings.branch.max_column - settings.branch.min_column + 1;
  const growthMax = reach + lag * widest + 1;
  const first = now - FIRST_PUBLISH_AGO;
  const span = FIRST_PUBLISH_AGO - LAST_PUBLISH_AGO;
  return (row, column) => {
    const fromSeed = row < bands.seed ? bands.seed - row : row >= bands.roots ? row - bands.roots + 1 : 0;
    const fromTrunk = column < 0 ? -column : column >= settings.trunk.columns ? column - settings.trunk.columns + 1 : 0;
    const within = (column - settings.branch.min_column + 0.5) / columns;
    const growth = Math.min(1, (fromSeed + lag * fromTrunk + within) / growthMax);
    return Math.round(first + Math.sqrt(growth) * span);
  };
}

function hslToRgb(hue: number, saturation: number, lightness: number): number {
  const h = (((hue % 360) + 360) % 360) / 60;
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = lightness - c / 2;
  const [r, g, b] =
    h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  return (Math.round((r + m) * 255) << 16) | (Math.round((g + m) * 255) << 8) | Math.round((b + m) * 255);
}

/**
 * A colour that drifts with position: brown roots and trunk, foliage moving from deep green low down to autumn
 * orange at the top, in broad patches, with a little noise per cell.
 */
function colourAt(row: number, column: number, height: number, trunk: boolean, root: boolean, noise: number): number {
  const patch = Math.sin(column * 0.21 + row * 0.013) + Math.sin(row * 0.031 - column * 0.11) * 0.7;
  if (trunk || root) {
    return hslToRgb(
      28 + patch * 6 + noise * 10,
      0.38 + noise * 0.08,
      0.26 + height * 0.08 + patch * 0.03 + noise * 0.05,
    );
  }
  // A few pieces in the foliage stand out like blossom or fruit.
  if (Math.abs(noise) > 0.985) return hslToRgb(noise > 0 ? 335 : 48, 0.75, 0.62);
  const hue = 125 - height * 100 + patch * 18 + noise * 22;
  return hslToRgb(hue, 0.5 + patch * 0.08 + noise * 0.1, 0.38 + patch * 0.06 + noise * 0.08);
}

/** Fills a new tree with exactly `options.cells` cells; see the module summary. */
export async function generateSyntheticTree(db: Db, options: SyntheticTreeOptions): Promise<SyntheticTreeResult> {
  const total = options.cells;
  if (!Number.isInteger(total) || total < 1 || total > MAX_SYNTHETIC_CELLS) {
    throw new RangeError(`cells must be an integer from 1 to ${MAX_SYNTHETIC_CELLS}, not ${total}.`);
  }
  const now = options.now ?? Date.now();
  const settings = syntheticSettings(total);
  const bands = bandStarts(settings);
  const rows = totalRows(settings);
  const random = mulberry32(total ^ 0x5eed);
  const publishedAt = growthClock(settings, now, GROWTH_FRONTIER + 0.02);
  const { treeId, treeToken, authorId } = insertTreeAndAuthor(
    db,
    settings,
    now,
    options.name ?? `Synthetic tree (${total.toLocaleString('en-US')} cells)`,
  );
  const nextPosition = positionWalker(settings, rows, planRows(settings, total), fillRanks(settings));

  const client = db.$client;
  const previousCache = client.pragma('cache_size', { simple: true });
  // Random tokens land all over their unique indexes: a large page cache keeps those inserts in memory.
  client.pragma('cache_size = -262144');
  const progressStep = Math.max(1, Math.floor(total / 100));
  // Small trees take smaller batches, so progress still moves in steps of about 1%.
  const batch = Math.min(BATCH, progressStep);
  let nextProgress = progressStep;
  let done = 0;
  const { cellInserter, artInserter } = syntheticInserters(client);

  try {
    while (done < total) {
      db.transaction((tx) => {
        let cellId =
          (tx
            .select({ id: max(cells.id) })
            .from(cells)
            .get()?.id ?? 0) + 1;
        let artId =
          (tx
            .select({ id: max(art.id) })
            .from(art)
            .get()?.id ?? 0) + 1;
        const end = Math.min(total, done + TRANSACTION_CELLS);
        while (done < end) {
          const size = Math.min(batch, end - done);
          const tokens = randomBytes(TOKEN_BYTES * size * 2);
          const token = (i: number, ordinal: number) =>
            orderedToken(ordinal, tokens.toString('base64url', i * TOKEN_BYTES, (i + 1) * TOKEN_BYTES));
          const cellValues: unknown[] = [];
          const artValues: unknown[] = [];
          for (let i = 0; i < size; i++) {
            const position = nextPosition()!;
            const height = (rows - 1 - position.row) / Math.max(1, rows - 1);
            const root = position.row >= bands.roots;
            const noise = random() * 2 - 1;
            const status = statusAt(position.row, bands.roots, height + noise * 0.015, random());
            const id = cellId++;
            const stamp = Math.min(now, publishedAt(position.row, position.column));
            let cellArtId: number | null = null;
            if (status === CellStatus.Published || status === CellStatus.Reserved) {
              cellArtId = artId++;
              const colour = colourAt(position.row, position.column, height, position.trunk, root, noise);
              artValues.push(
                ...artRow(status, {
                  id: cellArtId,
                  token: token(size + i, cellArtId),
                  cellId: id,
                  authorId,
                  stamp,
                  colour,
                }),
              );
            }
            cellValues.push(
              id,
              token(i, id),
              treeId,
              position.row,
              position.column,
              position.trunk ? CellType.Trunk : CellType.Branch,
              status,
              cellArtId,
              stamp - 7 * DAY,
              stamp,
            );
          }
          // Cells first: each art row names its cell.
          cellInserter(cellValues);
          artInserter(artValues);
          done += size;
          if (done >= nextProgress || done === total) {
            options.onProgress?.(done, total);
            nextProgress = (Math.floor(done / progressStep) + 1) * progressStep;
          }
        }
      }, IMMEDIATE);
    }
    await recordBulkChange(db, treeId, now);
  } catch (error) {
    removeSyntheticTree(db, treeId, authorId);
    throw error;
  } finally {
    client.pragma(`cache_size = ${Number(previousCache)}`);
  }
  return { treeToken, treeId, cells: total };
}

/** The characters of base64url in byte order, so that a prefix written with them sorts as the number it holds. */
const SORTED_DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
const ORDERED_PREFIX = 5;

/**
 * A random token whose first five characters are its row's id in base 64 (in byte order): the rows of one generation
 * go into the tokens' unique indexes in order, at the end of a run, instead of all over them. Random tokens made a
 * ten-million-cell generation slow down with every million (each insert read a page of an index far larger than the
 * cache); these keep 98 random bits, still unguessable, and the same length and characters as every other token.
 */
export function orderedToken(ordinal: number, random: string): string {
  let prefix = '';
  for (let i = ORDERED_PREFIX - 1, rest = ordinal; i >= 0; i--, rest = Math.floor(rest / 64)) {
    prefix = SORTED_DIGITS[rest % 64]! + prefix;
  }
  return prefix + random.slice(ORDERED_PREFIX);
}

/** Where growth has reached, as a share of the tree's height from the ground. */
const GROWTH_FRONTIER = 0.86;

/** The tree's row and its author's, in one transaction; nobody can sign in as the author. */
function insertTreeAndAuthor(db: Db, settings: TreeSettings, now: number, name: string) {
  const treeToken = randomBytes(TOKEN_BYTES).toString('base64url');
  const authorToken = randomBytes(TOKEN_BYTES).toString('base64url');
  return db.transaction((tx) => {
    const author = tx
      .insert(users)
      .values({
        token: authorToken,
        email: `synthetic-${authorToken.slice(0, 12).toLowerCase()}@bench.gallery-tree.local`,
        // Not an argon2 hash: nobody can sign in as the synthetic author.
        passwordHash: '!synthetic',
        firstname: 'Synthetic',
        lastname: 'Artist',
        role: Role.Artist,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id })
      .get();
    const tree = tx
      .insert(trees)
      .values({ token: treeToken, name, settings, version: 1, createdAt: now })
      .returning({ id: trees.id })
      .get();
    return { treeId: tree.id, treeToken, authorId: author.id };
  });
}

/** The positions the plan fills, in row-then-column order; each call gives the next, or null when it is used up. */
function positionWalker(
  settings: TreeSettings,
  rows: number,
  plan: ReturnType<typeof planRows>,
  ranks: ReturnType<typeof fillRanks>,
): () => { row: number; column: number; trunk: boolean } | null {
  let row = 0;
  let column = settings.branch.min_column;
  return () => {
    for (; row < rows; row++, column = settings.branch.min_column) {
      for (; column <= settings.branch.max_column; column++) {
        const isTrunk = column >= 0 && column < settings.trunk.columns;
        const rank = ranks.get(column)!;
        if (isTrunk ? rank < plan.trunk[row]! : rank < plan.branch[row]! && inBranchArea(settings, row, column)) {
          return { row, column: column++, trunk: isTrunk };
        }
      }
    }
    return null;
  };
}

/**
 * A square's status by where it is: the lowest roots a mix, the crown below the growth frontier nearly all published,
 * a band round the frontier where growth is busy (published, free and reserved), pending above it. `height` is the
 * share of the tree's height (with a little noise), `roll` a random number in [0, 1).
 */
function statusAt(row: number, rootsStart: number, height: number, roll: number): CellStatus {
  if (row >= rootsStart && row >= rootsStart + ROOT_ROWS - 3) {
    return roll < 0.5 ? CellStatus.Published : roll < 0.8 ? CellStatus.Available : CellStatus.Pending;
  }
  if (height < GROWTH_FRONTIER - 0.02) {
    return roll < 0.94 ? CellStatus.Published : roll < 0.997 ? CellStatus.Available : CellStatus.Reserved;
  }
  if (height < GROWTH_FRONTIER + 0.02) {
    return roll < 0.3 ? CellStatus.Published : roll < 0.9 ? CellStatus.Available : CellStatus.Reserved;
  }
  return CellStatus.Pending;
}

/** The art row's values (in syntheticInserters' column order) of a published piece, or of a reserved square's draft. */
function artRow(
  status: CellStatus,
  piece: { id: number; token: string; cellId: number; authorId: number; stamp: number; colour: number },
): unknown[] {
  const seed = piece.cellId * 7 + 3;
  const { id, token, cellId, authorId, stamp } = piece;
  if (status === CellStatus.Published) {
    return [
      id,
      token,
      cellId,
      authorId,
      ArtStatus.Published,
      titleFor(seed),
      2000 + (seed % 26),
      CATEGORY_OPTIONS[seed % CATEGORY_OPTIONS.length],
      SUBJECT_OPTIONS[seed % SUBJECT_OPTIONS.length],
      STYLE_OPTIONS[seed % STYLE_OPTIONS.length],
      piece.colour,
      stamp - DAY,
      stamp,
      stamp - 3 * DAY,
      stamp,
    ];
  }
  // A reserved square holds a draft: a title and nothing else yet.
  return [
    id,
    token,
    cellId,
    authorId,
    ArtStatus.Draft,
    titleFor(seed),
    null,
    '',
    '',
    '',
    null,
    null,
    null,
    stamp,
    stamp,
  ];
}

/**
 * Drizzle's schema names every column; the rows go in through multi-row statements prepared once, because
 * drizzle's insert builder costs five times SQLite's own work at this scale (6.1 s against 1.1 s for 100k cells).
 */
function syntheticInserters(client: Db['$client']) {
  const cellInserter = bulkInserter(client, 'cells', [
    cells.id,
    cells.token,
    cells.treeId,
    cells.row,
    cells.column,
    cells.type,
    cells.status,
    cells.artId,
    cells.createdAt,
    cells.updatedAt,
  ]);
  const artInserter = bulkInserter(client, 'art', [
    art.id,
    art.token,
    art.cellId,
    art.authorId,
    art.status,
    art.title,
    art.year,
    art.category,
    art.subject,
    art.style,
    art.dominantColor,
    art.submittedAt,
    art.publishedAt,
    art.createdAt,
    art.updatedAt,
  ]);
  return { cellInserter, artInserter };
}

/**
 * Inserts rows given as one flat list of values, in the order of `columns`, with one multi-row statement per
 * batch size (prepared once each).
 */
function bulkInserter(
  client: Db['$client'],
  table: string,
  columns: readonly SQLiteColumn[],
): (values: unknown[]) => void {
  const statements = new Map<number, Statement>();
  const head = `insert into "${table}" (${columns.map((c) => `"${c.name}"`).join(', ')}) values `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return (values) => {
    const count = values.length / columns.length;
    if (count === 0) return;
    let statement = statements.get(count);
    if (!statement) {
      statement = client.prepare(head + Array.from({ length: count }, () => tuple).join(', '));
      statements.set(count, statement);
    }
    statement.run(values);
  };
}

/** Undoes a generation that failed half-way, so a broken benchmark leaves no half tree behind. */
function removeSyntheticTree(db: Db, treeId: number, authorId: number): void {
  db.transaction((tx) => {
    tx.delete(art).where(eq(art.authorId, authorId)).run();
    tx.delete(cells).where(eq(cells.treeId, treeId)).run();
    tx.delete(trees).where(eq(trees.id, treeId)).run();
    tx.delete(users).where(eq(users.id, authorId)).run();
  });
}
