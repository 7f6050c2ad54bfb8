import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { ConfigError, loadConfig, testConfig } from '#server/config.ts';
import { ensureWritableDir, openDatabase } from '#server/db.ts';
import { StartupError } from '#server/startup-error.ts';
import { nodeWithTsx } from '#tests/helpers/server/real-server.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

const root = path.resolve(import.meta.dirname, '../..');

function startWith(env: Record<string, string>) {
  return spawnSync(process.execPath, nodeWithTsx('scripts/start.ts', '--no-build'), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up problems are told in one line', () => {
  it('names a data folder that cannot be created', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    await expect(buildApp(testConfig(path.join(file, 'data')))).rejects.toThrow(StartupError);
    await expect(buildApp(testConfig(path.join(file, 'data')))).rejects.toThrow(
      `The data folder ${path.join(file, 'data')} cannot be created`,
    );
  });

  it('takes a folder another process made at the same moment as made', () => {
    // Two processes starting on one data folder: the other makes the media folder just after this one looked for it.
    const dir = path.join(tempDir(), 'media');
    const exists = fs.existsSync;
    const look = vi.spyOn(fs, 'existsSync').mockImplementation((at) => {
      if (at !== dir || exists(dir)) return exists(at);
      fs.mkdirSync(dir);
      return false;
    });
    try {
      expect(() => ensureWritableDir(dir, 'media folder')).not.toThrow();
    } finally {
      look.mockRestore();
    }
    expect(fs.statSync(dir).isDirectory()).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    "answers at once for a data folder under /proc, where Node's recursive mkdir never returns",
    async () => {
      const dir = '/proc/gallery-tree-no-such-folder/data';
      await expect(buildApp(testConfig(dir))).rejects.toThrow(`The data folder ${dir} cannot be created: ENOENT`);
      expect(fs.existsSync('/proc/gallery-tree-no-such-folder')).toBe(false);
    },
  );

  it('creates a data folder whose parents do not exist yet', async () => {
    const dir = path.join(tempDir(), 'a', 'b', 'data');
    const app = await buildApp(testConfig(dir));
    try {
      expect(fs.statSync(dir).isDirectory()).toBe(true);
    } finally {
      await app.stop();
    }
  });

  it('names a damaged database file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'gallery.db');
    fs.writeFileSync(file, 'this is not a database, just some words that fill the header '.repeat(100));
    expect(() => openDatabase(file)).toThrow(StartupError);
    expect(() => openDatabase(file)).toThrow(`The database file ${file} is damaged or is not a SQLite database`);
  });

  it('names a bad environment variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid environment variable PORT/);
    expect(() => loadConfig({ SEED: 'everything' })).toThrow(/SEED/);
  });

  it('stops `npm start` with exit code 1 and a single line, no stack trace', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'blocker'), 'x');
    const unwritable = startWith({ DATA_DIR: path.join(dir, 'blocker', 'data') });
    expect(unwritable.status).toBe(1);
    expect(unwritable.stderr.trim().split('\n')).toEqual([
      `Cannot start: The data folder ${path.join(dir, 'blocker', 'data')} cannot be created: ENOTDIR: not a directory, mkdir '${path.join(dir, 'blocker', 'data')}'.`,
    ]);

    const damaged = tempDir();
    fs.writeFileSync(path.join(damaged, 'gallery.db'), 'garbage '.repeat(1000));
    const corrupt = startWith({ DATA_DIR: damaged });
    expect(corrupt.status).toBe(1);
    const lines = corrupt.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start: The database file .*gallery\.db is damaged or is not a SQLite database/);

    const badPort = startWith({ PORT: '99999' });
    expect(badPort.status).toBe(1);
    expect(badPort.stderr.trim()).toMatch(/^Cannot start: Invalid environment variable PORT/);
  });
});
