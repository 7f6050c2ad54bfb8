/**
 * The tests' temporary folders (tests/helpers/temp-dirs.ts): made under the system's temporary folder, and removed
 * with what they hold by the cleanup each test file runs when done, even when a test removed some itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '#tests/helpers/temp-dirs.ts';

describe('temporary folders of a test file', () => {
  it('are removed with their contents once the file is done, those already gone included', () => {
    const kept = tempDir('gallery-temp-dirs-');
    const gone = tempDir('gallery-temp-dirs-');
    expect(path.dirname(kept)).toBe(os.tmpdir());
    expect(path.basename(kept)).toMatch(/^gallery-temp-dirs-/);
    fs.mkdirSync(path.join(kept, 'media'));
    fs.writeFileSync(path.join(kept, 'media', 'piece.webp'), 'picture');
    fs.rmSync(gone, { recursive: true });
    removeTempDirs();
    expect(fs.existsSync(kept)).toBe(false);
    // Made later, by the next file in the same worker: not touched by the earlier removal, removed by the next.
    const next = tempDir('gallery-temp-dirs-');
    expect(fs.existsSync(next)).toBe(true);
    removeTempDirs();
    expect(fs.existsSync(next)).toBe(false);
  });
});
