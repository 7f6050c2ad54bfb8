/**
 * A tree past the detail limit is read row by row into its snapshot's columns (server/services/tree/snapshot-build.ts),
 * without a list of cell objects: its bytes and extent must be exactly those the cell list gives.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/schema.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { extentOf } from '#shared/tree/layout.ts';
import { encodeSnapshot, SNAPSHOT_DETAIL_LIMIT } from '#shared/tree/snapshot.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import {
  buildSnapshotBytes,
  readSnapshotCells,
  snapshotJsonAway,
  snapshotJsonOf,
} from '#server/services/tree/snapshot-build.ts';
import { encodeBinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import { syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { serverMediaUrlOf } from '#server/storage/index.ts';

describe('the snapshot of a large tree', () => {
  it(
    `past ${SNAPSHOT_DETAIL_LIMIT.toLocaleString('en-US')} cells, read row by row, equals the snapshot the cell list gives`,
    { timeout: 60_000 },
    async () => {
      const db = openDatabase(':memory:');
      try {
        const { treeId } = await generateSyntheticTree(db, { cells: SNAPSHOT_DETAIL_LIMIT + 5_000 });
        const tree = db.select().from(trees).where(eq(trees.id, treeId)).get()!;
        const built = buildSnapshotBytes(db, tree, serverMediaUrlOf);

        const cells = await readSnapshotCells(db, treeId);
        expect(cells.length).toBeGreaterThan(SNAPSHOT_DETAIL_LIMIT);
        expect(cells.some((cell) => cell.color !== null)).toBe(true);
        const expected = encodeSnapshot(
          { token: tree.token, version: tree.version, settings: tree.settings as TreeSettings },
          cells,
        );
        // The kept bytes are the binary form; the JSON form made from them is the one the cell list gives.
        expect(snapshotJsonOf(built.body.identity).toString()).toBe(`{"r":${JSON.stringify(expected)}}`);
        expect(built.count).toBe(cells.length);
        expect(built.extent).toEqual(
          extentOf(
            cells.length,
            (i) => cells[i]!.row,
            (i) => cells[i]!.column,
          ),
        );
      } finally {
        closeDatabase(db);
      }
    },
  );
});

describe('the JSON form of a large snapshot', () => {
  it('is written in slices, letting other work in between, and equals the form written at once', async () => {
    const { settings, cells } = syntheticTreeCells(600_000);
    // 12-bit colours, every one of them in turn (0: none).
    const color = Uint16Array.from({ length: cells.count }, (_, i) => i % 4096);
    const binary = encodeBinarySnapshot(
      { token: 'tree-token-0123456789', version: 3, settings },
      { ...cells, col: Int32Array.from(cells.col), color, detail: null },
    );
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const sliced = await snapshotJsonAway(binary);
      // Other callbacks ran while it was written (600,000 cells are three slices).
      expect(turns).toBeGreaterThan(0);
      expect(sliced.equals(snapshotJsonOf(binary))).toBe(true);
      expect(JSON.parse(sliced.toString()).r.count).toBe(600_000);
    } finally {
      clearInterval(timer);
    }
  });
});
