/**
 * The embeddable view on another site (decision 046): a page served from another origin frames /embed/cell/{token} in
 * a sandbox without allow-same-origin, as the oEmbed answer's iframe does; the view shows the piece, its picture and
 * the squares around it with no error (the policy, the pictures and the stream all reach a frame whose origin is no
 * one's), and follows the tree: the piece taken down, the frame says so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Frame } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, Role } from '#shared/domain.ts';
import { acceptRemoval } from '#server/services/admin/index.ts';
import { requestRemoval } from '#server/services/art/index.ts';
import {
  failedLoad,
  launchBrowser,
  releaseBrowser,
  startGallery,
  watchErrors,
  type Gallery,
} from '../helpers/browser/harness.ts';
import { axeViolations } from '../helpers/browser/axe.ts';

let gallery: Gallery;
let browser: Browser;
let elsewhere: http.Server;
let elsewhereUrl = '';
let piece: { cellToken: string; title: string; authorId: number };
/** Another published piece, which stays on show. */
let other: { cellToken: string };

beforeAll(async () => {
  gallery = await startGallery();
  browser = await launchBrowser('cpu');
  const { db } = gallery.app.deps;
  const published = await db
    .select({ cellToken: cells.token, title: art.title, authorId: art.authorId })
    .from(art)
    .innerJoin(cells, eq(cells.artId, art.id))
    .where(eq(art.status, ArtStatus.Published))
    .limit(2);
  [piece, other] = [published[0]!, published[1]!];
  // Another site: another host name and port than the gallery's.
  elsewhere = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Someone's blog</title><p>Look at this:</p>` +
        `<iframe sandbox="allow-scripts allow-popups" width="560" height="320" ` +
        `src="${gallery.url}/embed/cell/${piece.cellToken}"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://localhost:${(elsewhere.address() as AddressInfo).port}/`;
}, 60_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await new Promise((resolve) => elsewhere?.close(resolve));
  await gallery?.stop();
});

const embedFrame = (frames: Frame[]) => frames.find((frame) => frame.url().includes('/embed/cell/'))!;

it('renders the piece in a sandboxed frame on another site, and follows it being taken down', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(elsewhereUrl);
  const frame = embedFrame(page.frames());
  await frame.waitForSelector('.embed-title');
  expect(await frame.textContent('.embed-title')).toBe(piece.title);
  const seen = await frame.evaluate(async () => {
    const picture = document.querySelector<HTMLImageElement>('.embed-picture')!;
    await picture.decode();
    return {
      // The sandbox without allow-same-origin: the frame's origin is no one's.
      origin: self.origin,
      picture: picture.naturalWidth,
      squares: document.querySelectorAll('.embed-tree rect').length,
      back: document.querySelector('.embed-title a')!.getAttribute('target'),
    };
  });
  expect(seen.origin).toBe('null');
  expect(seen.picture).toBeGreaterThan(0);
  expect(seen.squares).toBeGreaterThan(5);
  expect(seen.back).toBe('_blank');

  // The piece taken down elsewhere: the open frame hears it on the tree's stream and says so.
  const deps = gallery.app.deps;
  const [author] = await deps.db.select().from(users).where(eq(users.id, piece.authorId));
  const [admin] = await deps.db.select().from(users).where(eq(users.role, Role.Admin)).limit(1);
  // The stream is open before the change (its first event is the tree's version).
  await frame.waitForSelector('html[data-live="open"]', { state: 'attached' });
  const removal = await requestRemoval(deps, author!, piece.cellToken, 'Taken down for the test.');
  await acceptRemoval(deps, admin!, removal.token);
  await frame.waitForSelector('.embed-gone', { timeout: 5_000 });
  expect(await frame.textContent('.embed-gone')).toContain('not on show');
  // The one failed load: the view fetching itself again, now answered 404 (not on show).
  expect(errors.filter((error) => !failedLoad(404).test(error))).toEqual([]);
  await context.close();
}, 30_000);

it('passes the WCAG checks as a page of its own, with its real policy in force', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${gallery.url}/embed/cell/${other.cellToken}`);
  await page.waitForSelector('html[data-live="open"]', { state: 'attached' });
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});
