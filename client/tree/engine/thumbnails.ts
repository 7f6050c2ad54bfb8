/**
 * Thumbnail textures, loaded only for cells in visible chunks and unloaded when the last chunk using them is destroyed,
 * so GPU memory follows the screen (docs/architecture.md, The tree page).
 */
import { Assets, type Texture } from 'pixi.js';

/** Loads under way at most, so a fast pan never fires hundreds of requests at once. */
const MAX_IN_FLIGHT = 6;

/** How the pool loads and unloads a texture: Pixi's asset loader on the page. */
export interface TextureLoader {
  load: (url: string) => Promise<Texture>;
  unload: (url: string) => Promise<void>;
}

const PIXI_ASSETS: TextureLoader = {
  load: (url) => Assets.load<Texture>({ src: url, data: { autoGenerateMipmaps: true } }),
  unload: (url) => Assets.unload(url),
};

interface Entry {
  refs: number;
  texture: Texture | null;
  state: 'queued' | 'loading' | 'loaded' | 'failed';
  waiters: ((texture: Texture | null) => void)[];
}

/**
 * The page's textures: every ThumbnailCache counts its references here, per URL (one picture may appear in several
 * cells). Pixi's asset cache is one for the page, and a load of a URL shares whatever the cache holds for it, even a
 * texture an unloading is about to destroy. So the counting is one for the page too (a tree left while its pictures
 * load, and the tree come back to, share them), and a URL asked for again while it is being unloaded loads once that
 * is done (decision 029).
 */
export class TexturePool {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  /** Unloadings under way, by URL. */
  private readonly unloading = new Map<string, Promise<void>>();
  private inFlight = 0;
  /** Textures held now. */
  loaded = 0;

  constructor(private readonly loader: TextureLoader = PIXI_ASSETS) {}

  acquire(url: string, ready: (texture: Texture | null) => void): void {
    let entry = this.entries.get(url);
    if (!entry) {
      entry = { refs: 0, texture: null, state: 'queued', waiters: [] };
      this.entries.set(url, entry);
      this.queue.push(url);
    }
    entry.refs++;
    if (entry.state === 'loaded' || entry.state === 'failed') ready(entry.texture);
    else entry.waiters.push(ready);
    this.pump();
  }

  release(url: string): void {
    const entry = this.entries.get(url);
    if (!entry) return;
    entry.refs--;
    if (entry.refs > 0) return;
    entry.waiters = [];
    if (entry.state === 'queued') {
      const at = this.queue.indexOf(url);
      if (at >= 0) this.queue.splice(at, 1);
      this.entries.delete(url);
    } else if (entry.state !== 'loading') {
      this.forget(url, entry);
    }
    // A load in flight finishes first and is then forgotten (see pump).
  }

  private forget(url: string, entry: Entry): void {
    if (this.entries.get(url) === entry) this.entries.delete(url);
    if (entry.state !== 'loaded') return;
    this.loaded--;
    const done: Promise<void> = this.loader
      .unload(url)
      .catch(() => undefined)
      .finally(() => {
        if (this.unloading.get(url) === done) this.unloading.delete(url);
      });
    this.unloading.set(url, done);
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const url = this.queue.shift()!;
      const entry = this.entries.get(url);
      if (!entry) continue;
      entry.state = 'loading';
      this.inFlight++;
      const load = () => this.loader.load(url);
      const pending = this.unloading.get(url);
      (pending ? pending.then(load) : load())
        .then(
          (texture) => {
            entry.texture = texture;
            entry.state = 'loaded';
            this.loaded++;
          },
          () => {
            entry.state = 'failed';
          },
        )
        .finally(() => {
          this.inFlight--;
          if (entry.refs <= 0) {
            this.forget(url, entry);
          } else {
            const waiters = entry.waiters;
            entry.waiters = [];
            for (const ready of waiters) ready(entry.texture);
          }
          this.pump();
        });
    }
  }
}

const pagePool = new TexturePool();

/** One tree's thumbnails: its references into the page's pool, all given back when it is destroyed. */
export class ThumbnailCache {
  private readonly held = new Map<string, number>();
  private destroyed = false;

  constructor(private readonly pool: TexturePool = pagePool) {}

  /** Textures held right now (the page's: it shows one tree at a time). */
  get loadedCount(): number {
    return this.pool.loaded;
  }

  /** Holds a reference to `url` and calls `ready` with its texture (or null if it cannot load). */
  acquire(url: string, ready: (texture: Texture | null) => void): void {
    if (this.destroyed) return;
    this.held.set(url, (this.held.get(url) ?? 0) + 1);
    this.pool.acquire(url, (texture) => {
      if (!this.destroyed) ready(texture);
    });
  }

  /** Drops one reference; the texture is unloaded when none remain on the page. */
  release(url: string): void {
    const count = this.held.get(url);
    if (!count) return;
    if (count === 1) this.held.delete(url);
    else this.held.set(url, count - 1);
    this.pool.release(url);
  }

  destroy(): void {
    this.destroyed = true;
    for (const [url, count] of this.held) for (let k = 0; k < count; k++) this.pool.release(url);
    this.held.clear();
  }
}
