import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#tests/helpers/server/real-server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-build-worker-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the native database module', () => {
  // better-sqlite3 before 13 freed a statement through a Node API that Node 24 asserts on when the collector runs
  // outside JavaScript: on Node 24 the server aborted (SIGABRT) after a few thousand queries.
  it('lets the collector free statements on the main thread and on the build worker, and the process lives', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/helpers/server/native-lifetime-run.ts', path.join(dir, 'gallery.db')],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = await new Promise<number | string>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
    );
    expect({ ended, output: output.trim().split('\n').slice(0, 3) }).toEqual({ ended: 0, output: ['ended'] });
  });
});
