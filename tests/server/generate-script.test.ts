/**
 * `npm run generate` (scripts/generate-tree.ts) as an operator runs it: a small tree into a new data folder, and a
 * refusal, with nothing written, for a gallery on PostgreSQL, whose database the command cannot write into.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { runScript } from '../helpers/server/real-server.ts';

const folders: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-generate-'));
  folders.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

it('adds a tree of exactly the cells asked for and says where to open it', async () => {
  const dataDir = tempDir();
  const run = await runScript('generate-tree.ts', ['--cells', '1,500'], dataDir);
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  const token = /Tree token: (\S+)/.exec(run.stdout)?.[1];
  expect(run.stdout).toContain(`/observe?tree=${token}`);
  const db = new Database(path.join(dataDir, 'gallery.db'), { readonly: true });
  try {
    const { count } = db
      .prepare('select count(*) as count from cells join trees on trees.id = cells.tree_id where trees.token = ?')
      .get(token) as { count: number };
    expect(count).toBe(1500);
  } finally {
    db.close();
  }
}, 60_000);

it('refuses a gallery on PostgreSQL, saying how to bring a generated tree there, and writes nothing', async () => {
  const dataDir = tempDir();
  const run = await runScript('generate-tree.ts', ['--cells', '100'], dataDir, {
    DATABASE_URL: 'postgres://gallery@127.0.0.1:1/gallery',
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/runs on PostgreSQL \(DATABASE_URL\).*npm run migrate-to-postgres/);
  expect(fs.readdirSync(dataDir)).toEqual([]);
}, 60_000);
