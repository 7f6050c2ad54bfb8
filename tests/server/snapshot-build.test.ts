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
import { buildSnapshotBytes, readSnapshotCells, snapshotJsonOf } from '#server/services/tree/snapshot-build.ts';
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
