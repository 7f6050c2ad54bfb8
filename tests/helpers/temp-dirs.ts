/**
 * Temporary folders for tests, removed when the test file that made them is done (temp-dirs-cleanup.ts, a setup
 * file of every project), whatever the file's own cleanup did: a full run used to leave a few dozen folders behind,
 * some of them databases of several megabytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folders made since the last removal: the running file's (a worker runs its files one after another). */
const made: string[] = [];

export function tempDir(prefix = 'gallery-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made since the last call, and what is in it. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
