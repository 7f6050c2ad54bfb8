/**
 * The shared set-up of the profiles' browser tests: `useProfiles()` starts one gallery and one Chromium for the file,
 * signs an artist up with a submitted piece and a held square (beforeAll/afterAll), and answers them as live bindings,
 * with the form's sample values and small page helpers.
 */
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startGallery, type Gallery } from './harness.ts';
import { availableSquares, pictureFiles, reserveSquare, signUp, submitPiece, type Member } from './profile-fixtures.ts';

/** With PROFILE_SHOTS=<folder> set, the test saves screenshots there. */
export const SHOTS = process.env.PROFILE_SHOTS ?? null;

// Set by useProfiles's beforeAll; importers read the live bindings.
export let gallery: Gallery;
export let browser: Browser;
export let artist: Member;
export let page: Page;
export let files: Awaited<ReturnType<typeof pictureFiles>>;
/** The submitted piece's square and the held square. */
export let squares: { submitted: string; held: string };
/** POSTs of the profile form that reached the server. */
export let profilePosts: number;

export const EXHIBITIONS = Array.from(
  { length: 12 },
  (_, i) => `Group show ${i + 1}, Gallery of the Valley, ${2010 + i}`,
).join('\n');
export const FIELDS = {
  description: 'I paint rivers at dusk and the people who walk beside them.',
  exhibitions: EXHIBITIONS,
  education: 'School of Fine Arts, painting, 2008',
  personal: 'www.ada-paints.example',
  fb: 'https://facebook.example/ada',
  tw: 'https://x.example/ada',
  tt: 'https://tiktok.example/@ada',
  in: 'https://instagram.example/ada',
};

export const open = (to: string) => page.goto(`${gallery.url}${to}`);
export const field = (label: string) => page.getByLabel(label, { exact: true });

export async function screenshot(name: string, on: Page = page): Promise<void> {
  if (SHOTS) await on.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

export async function openTab(tab: string): Promise<void> {
  await open(`/profile?tab=${tab}`);
  await page.getByRole('heading', { name: 'manage profile.' }).waitFor();
}

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useProfiles(): void {
  beforeAll(async () => {
    [gallery, browser, files] = await Promise.all([startGallery(), launchBrowser(), pictureFiles()]);
    artist = await signUp(gallery, browser, 'Ada', 'Rivers');
    page = artist.page;
    const [submitted, held] = availableSquares(gallery);
    squares = { submitted, held };
    await submitPiece(page, submitted, 'Blue Hour');
    await reserveSquare(page, held);
    // The held square's draft brings the edit-reserved-cell popup once a session: answered "later" here.
    await page.reload();
    const prompt = page.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'No, later' }).click();
    await prompt.waitFor({ state: 'detached' });
    profilePosts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/user\/[^/]+\/profile$/.test(new URL(request.url()).pathname))
        profilePosts += 1;
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gallery?.stop();
    if (files) fs.rmSync(files.dir, { recursive: true, force: true });
  });
}
