/**
 * Server side of the tree (issue: the tree at a million squares, benchmark 4): time and bytes to build the
 * snapshot and to send it, for synthetic trees of 1k, 100k and 1M cells (`BENCH_SIZES`), and 10M with `BENCH_10M=1`
 * (decision 045). Run: `npm run bench -- snapshot`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { buildSnapshotBytes, compressBuilt } from '#server/services/tree/snapshot-build.ts';
import { getTreeByToken } from '#server/services/tree/tree.ts';
import { serverMediaUrlOf } from '#server/storage/index.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { ms, writeResults, type Row } from './results.ts';
import { TEN_MILLION } from './sizes.ts';

const LISTED = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const SIZES = process.env.BENCH_10M === '1' && !LISTED.includes(TEN_MILLION) ? [...LISTED, TEN_MILLION] : LISTED;
const SEND_REPEATS = 20;

export async function benchTreeSnapshot(): Promise<string> {
  const rows: Row[] = [];
  for (const size of SIZES) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-'));
    const db = openDatabase(path.join(dir, 'gallery.db'));
    let t0 = process.hrtime.bigint();
    const { treeToken } = await generateSyntheticTree(db, { cells: size });
    const generateMs = ms(t0);

    const tree = await getTreeByToken(db, treeToken);
    // The build as the worker runs it (read row by row, written as bytes, compressed), then its compression alone.
    t0 = process.hrtime.bigint();
    const built = db.transaction(() => buildSnapshotBytes(db, tree, serverMediaUrlOf));
    const buildMs = ms(t0);
    t0 = process.hrtime.bigint();
    compressBuilt(built.body.identity, 22, 'binary');
    const compressMs = ms(t0);
    const { identity, br, gzip: gz } = built.body;

    const app = await buildApp(testConfig(dir), { db });
    const url = `/api/tree/${treeToken}`;
    // As the page asks: the binary form (decision 050).
    const headers = { accept: SNAPSHOT_BINARY_TYPE, 'accept-encoding': 'br, gzip' };
    t0 = process.hrtime.bigint();
    const first = await app.server.inject({ url, headers });
    const firstMs = ms(t0);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < SEND_REPEATS; i++) await app.server.inject({ url, headers });
    const sendMs = ms(t0) / SEND_REPEATS;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < SEND_REPEATS; i++) {
      await app.server.inject({ url, headers: { ...headers, 'if-none-match': first.headers.etag as string } });
    }
    const notModifiedMs = ms(t0) / SEND_REPEATS;
    await app.stop();
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });

    rows.push({
      cells: size.toLocaleString('en'),
      'generate s': (generateMs / 1000).toFixed(1),
      'build ms': buildMs.toFixed(0),
      'of it brotli + gzip ms': compressMs.toFixed(0),
      'first request ms': firstMs.toFixed(0),
      'cached send ms': sendMs.toFixed(2),
      '304 ms': notModifiedMs.toFixed(2),
      'binary bytes': identity.length.toLocaleString('en'),
      'brotli bytes': br.length.toLocaleString('en'),
      'gzip bytes': gz.length.toLocaleString('en'),
      'wire bytes': first.rawPayload.length.toLocaleString('en'),
    });
  }
  return writeResults('tree-snapshot', 'Tree snapshot: build and send', rows, [
    '"build" is the build worker\'s work, here in-process: the cells read row by row, the binary form written with its branch slots (decision 050), brotli and gzip (past 32 MB brotli 7 and gzip 6, decision 045); "first request" builds the snapshot again (on the worker) and sends it; "cached send" is a later request for the same version (Fastify inject, the binary form, brotli accepted).',
    'Synthetic trees from `npm run generate`; tokens and thumbnails ride in the snapshot only up to 50,000 cells.',
  ]);
}
