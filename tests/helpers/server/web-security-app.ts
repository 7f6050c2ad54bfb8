/**
 * The shared set-up of the web security tests: `const app = useWebSecurityApp()` at a test file's top sets up one API
 * world for the file, a watch on its store and one stored picture (beforeAll/afterAll, through fileFixture), answered
 * as `app.w`, `app.store` and `app.mediaUrl`; SITE and GOOD are the site and a good CSRF token.
 */
import sharp from 'sharp';
import { storePicture } from '#server/services/media/images.ts';
import { fileFixture } from '../file-fixture.ts';
import { createApiWorld } from './api-world.ts';
import { watchStore } from './store-fingerprint.ts';

export function useWebSecurityApp() {
  const app = fileFixture(
    async () => {
      const w = await createApiWorld();
      const store = watchStore(w.t.deps.db, w.t.deps.media);
      const picture = await storePicture(
        w.t.deps.media,
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
          .png()
          .toBuffer(),
      );
      return { w, store, mediaUrl: `/media/${picture.key}-thumb.webp` };
    },
    ({ w }) => w.t.cleanup(),
    60_000,
  );
  return {
    get w() {
      return app().w;
    },
    get store() {
      return app().store;
    },
    get mediaUrl() {
      return app().mediaUrl;
    },
  };
}

export const SITE = 'http://localhost:3000';
export const GOOD = 'G'.repeat(32);
