/**
 * The shared set-up of the art editor's browser tests: `useArtEditor()` writes the image files and starts one gallery
 * and one Chromium for the file (beforeAll/afterAll), answered as live bindings, with small readers of the database.
 */
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { artViews } from '#drizzle/schema.ts';
import { writeImageFiles } from './art-editor-fixtures.ts';
import { launchBrowser, startGallery, type Gallery } from './harness.ts';

// Set by useArtEditor's beforeAll; importers read the live bindings.
export let gallery: Gallery;
export let browser: Browser;
export let files: Awaited<ReturnType<typeof writeImageFiles>>;

export const file = (name: string) => files.file(name);
export const dbOf = () => gallery.app.deps.db;
export const viewsOf = (artId: number) =>
  dbOf().select({ n: count() }).from(artViews).where(eq(artViews.artId, artId)).get()!.n;

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useArtEditor(): void {
  beforeAll(async () => {
    [files, gallery, browser] = await Promise.all([writeImageFiles(), startGallery(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await gallery?.stop();
    if (files) fs.rmSync(files.dir, { recursive: true, force: true });
  });
}
