/**
 * Graceful shutdown of the real server process (server/main.ts): on SIGTERM it stops accepting connections, lets a
 * request already in flight finish (here a slow art upload whose body is still arriving when the signal comes),
 * closes the database cleanly (no write-ahead log left to recover) and exits 0.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { art, cells, pictures } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { artForm, png, validFields } from '../helpers/art-fixtures.ts';
import { cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import {
  encodeForm,
  signedInUsers,
  startRealServer,
  stopRealServer,
  writeHeaders,
  type RealServer,
} from '../helpers/server/real-server.ts';

let server: RealServer | null = null;
afterEach(async () => {
  if (server && server.process.exitCode === null && server.process.signalCode === null)
    await stopRealServer(server, 'SIGKILL');
  server = null;
});

/** Polls until the server no longer takes new requests (connection refused, or 503 on a kept-alive socket). */
async function untilRefusing(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const status = await fetch(`${url}/api/health`, { headers: { connection: 'close' } }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 0 || status === 503) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the server kept accepting requests after SIGTERM');
}

describe('graceful shutdown of the real server', () => {
  it('SIGTERM: an upload in flight completes, new requests are refused, the database closes cleanly, exit code 0', async () => {
    const dataDir = tempDir('gallery-shutdown-');
    server = await startRealServer(dataDir);
    const dbFile = path.join(dataDir, 'gallery.db');
    const db = openDatabase(dbFile);
    const [user] = await signedInUsers(db, 1);
    const square = (await cellAt(db, (await getDefaultTree(db))!.id, SEED_ROW, 2))!;
    closeDatabase(db);
    expect(square.status).toBe(CellStatus.Available);

    const { body, contentType } = await encodeForm(
      artForm(validFields({ title: 'Finished During Shutdown' }), [
        { bytes: await png(640, 480), name: 'a.png', type: 'image/png' },
      ]),
    );
    const target = new URL(`${server.url}/api/cell/${square.token}`);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          // "100 Continue" comes back once the server has read the headers: the request is then surely in flight.
          headers: {
            ...writeHeaders(user!.cookie),
            'content-type': contentType,
            'content-length': body.length,
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      // Half the body, then the signal; the rest only once the server has stopped taking new requests.
      req.once('continue', () => {
        req.write(body.subarray(0, body.length >> 1));
        server!.process.kill('SIGTERM');
        void untilRefusing(server!.url).then(() => req.end(body.subarray(body.length >> 1)), reject);
      });
      req.flushHeaders();
    });

    const finished = await answer;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).r.art.title).toBe('Finished During Shutdown');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toBe('');

    // Closed cleanly: the log was folded into the database file, which opens and checks out without recovery.
    const wal = `${dbFile}-wal`;
    expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
    const check = new Database(dbFile, { readonly: true, fileMustExist: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    const after = openDatabase(dbFile);
    const piece = after.select().from(art).where(eq(art.title, 'Finished During Shutdown')).get()!;
    expect(after.select().from(pictures).where(eq(pictures.artId, piece.id)).all()).toHaveLength(1);
    expect(after.select().from(cells).where(eq(cells.id, square.id)).get()!.status).toBe(CellStatus.Reserved);
    closeDatabase(after);
  }, 60_000);
});
