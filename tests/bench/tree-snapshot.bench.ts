/**
 * Server side of the tree (issue: the tree at a million squares, benchmark 4): time and bytes to build the
 * snapshot and to send it, for synthetic trees of 1k, 100k and 1M cells. Run: `npm run bench -- snapshot`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { getTreeByToken, readSnapshotCells } from '#server/services/tree/tree.ts';
import { encodeSnapshot } from '#shared/tree/snapshot.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { ms, writeResults, type Row } from './results.ts';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
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
    t0 = process.hrtime.bigint();
    const cells = await readSnapshotCells(db, tree.id);
    const queryMs = ms(t0);
    t0 = process.hrtime.bigint();
    const wire = encodeSnapshot(
      { token: tree.token, version: tree.version, settings: tree.settings as TreeSettings },
      cells,
    );
    const json = Buffer.from(`{"r":${JSON.stringify(wire)}}`);
    const encodeMs = ms(t0);
    t0 = process.hrtime.bigint();
    const br = brotliCompressSync(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: json.length > 4_000_000 ? 9 : 11 } });
    const brotliMs = ms(t0);
    t0 = process.hrtime.bigint();
    const gz = gzipSync(json, { level: 9 });
    const gzipMs = ms(t0);

    const app = await buildApp(testConfig(dir), { db });
    const url = `/api/tree/${treeToken}`;
    const headers = { 'accept-encoding': 'br, gzip' };
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
      'query ms': queryMs.toFixed(0),
      'encode+stringify ms': encodeMs.toFixed(0),
      'brotli ms': brotliMs.toFixed(0),
      'gzip ms': gzipMs.toFixed(0),
      'first request ms': firstMs.toFixed(0),
      'cached send ms': sendMs.toFixed(2),
      '304 ms': notModifiedMs.toFixed(2),
      'JSON bytes': json.length.toLocaleString('en'),
      'brotli bytes': br.length.toLocaleString('en'),
      'gzip bytes': gz.length.toLocaleString('en'),
      'wire bytes': first.rawPayload.length.toLocaleString('en'),
    });
  }
  return writeResults('tree-snapshot', 'Tree snapshot: build and send', rows, [
    '"first request" builds the snapshot (query, encode, brotli, gzip) and sends it; "cached send" is a later request for the same version (Fastify inject, brotli accepted).',
    'Synthetic trees from `npm run generate`; tokens and thumbnails ride in the snapshot only up to 50,000 cells.',
  ]);
}
