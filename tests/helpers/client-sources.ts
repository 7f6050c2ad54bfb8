/**
 * A copy of the client's sources in a temporary folder, node_modules linked, for tests that build a second version
 * of the client (scripts/client-build.ts) without touching the checkout's own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './paths.ts';

const COPIED = ['client', 'shared', 'vite.config.ts', 'package.json', 'tsconfig.json'];

export interface ClientSources {
  root: string;
  /** Replaces `from` with `to` in one source file (a path under the copy), which must contain it. */
  change: (file: string, from: string, to: string) => void;
  remove: () => void;
}

export function copyClientSources(): ClientSources {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-client-sources-'));
  for (const entry of COPIED) fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return {
    root,
    change(file, from, to) {
      const full = path.join(root, file);
      const text = fs.readFileSync(full, 'utf8');
      if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
      fs.writeFileSync(full, text.replace(from, to));
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
