/**
 * A stop on a full disk: the last writes of a stopping server (the rate-limit counts still in memory, the write-ahead
 * log folded back) fail with SQLITE_FULL, and the server must still close its database and stop cleanly. The full
 * disk is SQLite's own limit on the file's pages, set to the pages the file has: any write needing one more fails
 * exactly as on a full disk.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { write } from '#server/db.ts';
import { LIMITS, hitRateLimit } from '#server/services/rate-limit.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

let t: TestApp | null = null;

afterEach(() => {
  if (t) fs.rmSync(t.dir, { recursive: true, force: true });
  t = null;
});

it('closes the database and stops without an error when its last writes meet a full disk, and says so', async () => {
  const lines: string[] = [];
  t = await createTestApp({ logLevel: 'warn' }, { logOutput: { write: (line: string) => lines.push(line) } });
  const { db } = t.deps;
  // Searches from many addresses: counted in memory, written when the server stops.
  for (let i = 0; i < 3_000; i++)
    await hitRateLimit(db, t.clock.now(), LIMITS.searchPerIp, `10.1.${Math.floor(i / 250)}.${i % 250}`);
  const pages = db.$client.pragma('page_count', { simple: true }) as number;
  db.$client.pragma(`max_page_count = ${pages}`);
  // The limit is a connection's: the writes go through the database's write connection.
  await write(db, (tx) => tx.$client.pragma(`max_page_count = ${pages}`));

  await expect(t.stop()).resolves.toBeUndefined();

  expect(db.$client.open).toBe(false);
  const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
  const unsaved = warnings.find((line) => line.msg.startsWith('the last rate-limit counts could not be saved'));
  expect(unsaved?.err?.message).toMatch(/full/);
});
