/**
 * A decoded tree of N cells built in memory for unit tests and the apply benchmark (no database): the synthetic
 * geometry of server/seed/synthetic.ts, every trunk and branch position filled bottom-up, a few squares
 * pending, and a growth history (shared/tree/history.ts) publishing the published ones outward from the seed.
 */
import { CellStatus, CellType } from '#shared/domain.ts';
import { HISTORY_FORMAT, type TreeHistoryWire } from '#shared/tree/history.ts';
import { bandStarts, inBranchArea, isTrunkColumn, totalRows, type TreeSettings } from '#shared/tree/geometry.ts';
import { PositionIndex } from '#shared/tree/position-index.ts';
import { colorAsSent, type TreeCells } from '#shared/tree/snapshot.ts';
import { syntheticSettings } from '#server/seed/synthetic.ts';

export interface SyntheticTree {
  settings: TreeSettings;
  cells: TreeCells;
}

export function syntheticTreeCells(count: number): SyntheticTree {
  const settings = syntheticSettings(count);
  const rows = totalRows(settings);
  const row = new Int32Array(count);
  const col = new Int32Array(count);
  let n = 0;
  // Bottom-up, as the synthetic tree fills; stored in row-then-column order like a snapshot.
  const positions: [number, number][] = [];
  for (let r = rows - 1; r >= 0 && positions.length < count; r--) {
    for (let c = settings.branch.min_column; c <= settings.branch.max_column && positions.length < count; c++) {
      if (isTrunkColumn(settings, c) || inBranchArea(settings, r, c)) positions.push([r, c]);
    }
  }
  positions.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const status = new Uint8Array(count);
  const type = new Uint8Array(count);
  const color = new Int32Array(count);
  const indexOf = PositionIndex.forBounds(count, 0, rows - 1, settings.branch.min_column, settings.branch.max_column);
  for (const [r, c] of positions) {
    row[n] = r;
    col[n] = c;
    type[n] = isTrunkColumn(settings, c) ? CellType.Trunk : CellType.Branch;
    // Every 37th square still waits (pending trunk, available branch), so slots and gaps exist.
    const waiting = (r * 31 + c * 7) % 37 === 0;
    status[n] = waiting
      ? type[n] === CellType.Trunk
        ? CellStatus.Pending
        : CellStatus.Available
      : CellStatus.Published;
    // Colours as a snapshot carries them (12 bits, expanded).
    color[n] = waiting ? -1 : colorAsSent(((r * 2654435761 + c * 40503) >>> 8) & 0xffffff);
    indexOf.set(r, c, n);
    n++;
  }
  return { settings, cells: { count, row, col, status, type, color, token: null, thumb: null, indexOf } };
}

/** A growth history of a tree's published cells: outward from the seed band, one hour step per `perStep` pieces. */
export function growthHistory(tree: SyntheticTree, perStep = 3, start = Date.UTC(2025, 0, 1)): TreeHistoryWire {
  const { settings, cells } = tree;
  const seed = bandStarts(settings).seed;
  const order: number[] = [];
  for (let i = 0; i < cells.count; i++) if (cells.status[i] === CellStatus.Published) order.push(i);
  const distance = (i: number) => Math.abs(cells.row[i]! - seed) + Math.abs(cells.col[i]! - 2) * 0.5;
  order.sort((a, b) => distance(a) - distance(b) || a - b);
  const row: number[] = [];
  const col: number[] = [];
  const time: number[] = [];
  let previousRow = 0;
  order.forEach((i, k) => {
    row.push(cells.row[i]! - previousRow);
    previousRow = cells.row[i]!;
    col.push(cells.col[i]!);
    time.push(k % perStep === 0 ? 1 : 0);
  });
  if (time.length > 0) time[0] = 0;
  return {
    format: HISTORY_FORMAT,
    token: 'tree',
    version: 1,
    start,
    step: 3_600_000,
    count: order.length,
    row,
    col,
    time,
  };
}
