/**
 * The shared set-up of the web security tests: `useWebSecurityApp()` registers one API world for the file, a watch on its
 * store and one stored picture (beforeAll/afterAll), answered as live bindings, with the site and a good CSRF token.
 */
import { afterAll, beforeAll } from 'vitest';
import sharp from 'sharp';
import { storePicture } from '#server/services/media/images.ts';
import { createApiWorld, type ApiWorld } from './api-world.ts';
import { watchStore } from './store-fingerprint.ts';

// Set by useWebSecurityApp's beforeAll; importers read the live bindings.
export let w: ApiWorld;
export let store: ReturnType<typeof watchStore>;
export let mediaUrl: string;
/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useWebSecurityApp(): void {
  beforeAll(async () => {
    w = await createApiWorld();
    store = watchStore(w.t.deps.db, w.t.deps.config.mediaDir);
    const picture = await storePicture(
      w.t.deps.media,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
    );
    mediaUrl = `/media/${picture.key}-thumb.webp`;
  }, 60_000);
  afterAll(() => w.t.cleanup());
}

export const SITE = 'http://localhost:3000';
export const GOOD = 'G'.repeat(32);
