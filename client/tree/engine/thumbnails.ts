/**
 * Thumbnail textures, loaded only for cells in visible chunks and unloaded when the last chunk using them is
 * destroyed (DESIGN.md §6). Counted per URL, since one picture may appear in several cells, and throttled so a fast
 * pan never fires hundreds of requests at once.
 */
import { Assets, type Texture } from 'pixi.js';

const MAX_IN_FLIGHT = 6;

interface Entry {
  refs: number;
  texture: Texture | null;
  state: 'queued' | 'loading' | 'loaded' | 'failed';
  waiters: ((texture: Texture | null) => void)[];
}

export class ThumbnailCache {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private inFlight = 0;
  private loaded = 0;
  private destroyed = false;

  /** Textures currently held. */
  get loadedCount(): number {
    return this.loaded;
  }

  /** Holds a reference to `url` and calls `ready` with its texture (or null if it cannot load). */
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

  /** Drops one reference; the texture is unloaded when none remain. */
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

  destroy(): void {
    this.destroyed = true;
    this.queue.length = 0;
    for (const [url, entry] of this.entries) if (entry.state !== 'loading') this.forget(url, entry);
  }

  private forget(url: string, entry: Entry): void {
    this.entries.delete(url);
    if (entry.state !== 'loaded') return;
    this.loaded--;
    void Assets.unload(url).catch(() => undefined);
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const url = this.queue.shift()!;
      const entry = this.entries.get(url);
      if (!entry) continue;
      entry.state = 'loading';
      this.inFlight++;
      Assets.load<Texture>({ src: url, data: { autoGenerateMipmaps: true } })
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
          if (this.destroyed || entry.refs <= 0) {
            this.forget(url, entry);
          } else {
            const waiters = entry.waiters;
            entry.waiters = [];
            for (const ready of waiters) ready(entry.texture);
          }
          if (!this.destroyed) this.pump();
        });
    }
  }
}
