/**
 * Which client build the server hands out now (decision 041): its id is a hash of the built index.html, which names
 * every entry file by its content hash, so two builds differ in id exactly when a page would load different code.
 * The page carries the id it was built with (`<meta name="client-build">`, put in by index-html.ts), every tRPC
 * answer carries the current one (`X-Client-Build`), and a page that sees another id reloads at its next calm
 * moment (client/app/client-updates.ts). Every process reads the id from the same folder, so during a rolling
 * restart the old process and the new one tell the same build.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

export const CLIENT_BUILD_HEADER = 'x-client-build';

/** The id of the build whose index.html this is. */
export function clientBuildIdOf(html: string): string {
  return createHash('sha256').update(html).digest('base64url').slice(0, 12);
}

interface PageFile {
  mtimeMs: number;
  html: string;
  id: string;
}

/** One cache per page file, shared by the page's renderer and the header, so both tell the same build. */
const pages = new Map<string, PageFile | null>();
const checks = new Map<string, number>();

/**
 * The built page at `file` and its build id, or null when there is none. The file is looked at again when the last
 * look is older than `maxAgeMs` (0: every time, as a page render does); a new build replaces it by a rename, so a
 * changed mtime is a new build.
 */
export function builtPage(file: string, maxAgeMs = 0, now = Date.now()): { html: string; id: string } | null {
  const known = pages.get(file);
  if (known !== undefined && now - (checks.get(file) ?? 0) < maxAgeMs) return known;
  checks.set(file, now);
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    pages.set(file, null);
    return null;
  }
  if (known && known.mtimeMs === mtimeMs) return known;
  let html: string;
  try {
    html = fs.readFileSync(file, 'utf8');
  } catch {
    pages.set(file, null);
    return null;
  }
  const page: PageFile = { mtimeMs, html, id: clientBuildIdOf(html) };
  pages.set(file, page);
  return page;
}

/**
 * Every tRPC answer says which client build the server hands out now. Looked up at most once a second: a page
 * served meanwhile looks the file up itself, which refreshes the same cache.
 */
export function useClientBuildHeader(server: FastifyInstance, clientDir: string): void {
  const file = path.join(clientDir, 'index.html');
  server.addHook('onRequest', (req, reply, done) => {
    if (req.url.startsWith('/trpc/')) reply.header(CLIENT_BUILD_HEADER, builtPage(file, 1000)?.id ?? 'none');
    done();
  });
}
