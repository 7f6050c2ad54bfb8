/**
 * The page's thumbnail textures (client/tree/engine/thumbnails.ts, decision 029): counted per URL for the whole page,
 * loaded once however many squares and trees show them, at most six at a time, unloaded when the last reference goes,
 * and a URL wanted again while it is being unloaded loaded only once that is done. The textures are real PixiJS
 * textures; the loading itself (the network and the GPU, Pixi's Assets on the page) is played by the test.
 */
import { describe, expect, it } from 'vitest';
import { Texture } from 'pixi.js';
import { TexturePool, ThumbnailCache, type TextureLoader } from '#client/tree/engine/thumbnails.ts';

/** Loads and unloads that wait for the test: `finish('load a')` ends the oldest one under that name. */
function heldLoader() {
  const calls: string[] = [];
  const waiting: { name: string; resolve: () => void; reject: () => void }[] = [];
  const textures = new Map<string, Texture>();
  const hold = <T>(name: string, value: () => T) =>
    new Promise<T>((resolve, reject) => {
      calls.push(name);
      waiting.push({ name, resolve: () => resolve(value()), reject: () => reject(new Error(`${name} failed`)) });
    });
  const loader: TextureLoader = {
    load: (url) =>
      hold(`load ${url}`, () => {
        const texture = new Texture();
        textures.set(url, texture);
        return texture;
      }),
    unload: (url) => hold(`unload ${url}`, () => undefined),
  };
  const take = (name: string) => {
    const at = waiting.findIndex((w) => w.name === name);
    if (at < 0) throw new Error(`Nothing waits as "${name}" (waiting: ${waiting.map((w) => w.name).join(', ')}).`);
    return waiting.splice(at, 1)[0]!;
  };
  return {
    calls,
    textures,
    loader,
    finish: async (name: string) => {
      take(name).resolve();
      await flush();
    },
    fail: async (name: string) => {
      take(name).reject();
      await flush();
    },
  };
}

/** Lets promise chains run to their end. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What a chunk's square is handed: the texture, null for a picture that cannot load, or nothing yet. */
function square() {
  const got: (Texture | null)[] = [];
  return { got, ready: (texture: Texture | null) => void got.push(texture) };
}

describe('the texture pool', () => {
  it('loads a URL once for every square that shows it, and hands each its texture', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const [a, b] = [square(), square()];
    pool.acquire('/a', a.ready);
    pool.acquire('/a', b.ready);
    expect(io.calls).toEqual(['load /a']);
    expect(a.got).toEqual([]);
    await io.finish('load /a');
    expect(a.got).toEqual([io.textures.get('/a')]);
    expect(b.got).toEqual([io.textures.get('/a')]);
    expect(pool.loaded).toBe(1);
    // A square that comes later gets it at once.
    const c = square();
    pool.acquire('/a', c.ready);
    expect(c.got).toEqual([io.textures.get('/a')]);
    expect(io.calls).toEqual(['load /a']);
  });

  it('loads at most six at a time, the next as soon as one is done', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    for (let k = 1; k <= 8; k++) pool.acquire(`/${k}`, () => {});
    expect(io.calls).toEqual(['/1', '/2', '/3', '/4', '/5', '/6'].map((url) => `load ${url}`));
    await io.finish('load /3');
    expect(io.calls.at(-1)).toBe('load /7');
    await io.fail('load /1');
    expect(io.calls.at(-1)).toBe('load /8');
  });

  it('never loads a URL given back before its turn came', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    for (let k = 1; k <= 7; k++) pool.acquire(`/${k}`, () => {});
    pool.release('/7');
    await io.finish('load /1');
    expect(io.calls).not.toContain('load /7');
    expect(io.calls).toHaveLength(6);
  });

  it('loads a URL given back and wanted again before its turn once, when its turn comes', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    for (let k = 1; k <= 7; k++) pool.acquire(`/${k}`, () => {});
    pool.release('/7');
    const again = square();
    pool.acquire('/7', again.ready);
    await io.finish('load /1');
    await io.finish('load /2');
    expect(io.calls.filter((call) => call === 'load /7')).toHaveLength(1);
    await io.finish('load /7');
    expect(again.got).toEqual([io.textures.get('/7')]);
  });

  it('unloads a texture when its last square gives it back, not before', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    pool.acquire('/a', () => {});
    pool.acquire('/a', () => {});
    await io.finish('load /a');
    pool.release('/a');
    expect(io.calls).not.toContain('unload /a');
    pool.release('/a');
    expect(io.calls).toContain('unload /a');
    expect(pool.loaded).toBe(0);
    // One release too many changes nothing.
    pool.release('/a');
    expect(io.calls.filter((call) => call === 'unload /a')).toHaveLength(1);
  });

  it('lets a load given back while under way finish, hands it to no one, then unloads it', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const a = square();
    pool.acquire('/a', a.ready);
    pool.release('/a');
    expect(io.calls).toEqual(['load /a']);
    await io.finish('load /a');
    expect(a.got).toEqual([]);
    expect(io.calls).toEqual(['load /a', 'unload /a']);
    expect(pool.loaded).toBe(0);
  });

  it('loads a URL wanted again while it is being unloaded only once the unloading is done', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    pool.acquire('/a', () => {});
    await io.finish('load /a');
    pool.release('/a');
    const again = square();
    pool.acquire('/a', again.ready);
    await flush();
    expect(io.calls).toEqual(['load /a', 'unload /a']);
    await io.finish('unload /a');
    expect(io.calls).toEqual(['load /a', 'unload /a', 'load /a']);
    await io.finish('load /a');
    expect(again.got).toEqual([io.textures.get('/a')]);
    expect(pool.loaded).toBe(1);
  });

  it('hands null for a picture that cannot load, and has nothing to unload for it', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const a = square();
    pool.acquire('/broken', a.ready);
    await io.fail('load /broken');
    expect(a.got).toEqual([null]);
    expect(pool.loaded).toBe(0);
    pool.release('/broken');
    expect(io.calls).toEqual(['load /broken']);
  });
});

describe('a tree’s thumbnail cache', () => {
  it('shares the page’s textures with another tree, and gives all its references back when destroyed', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const live = new ThumbnailCache(pool);
    const replay = new ThumbnailCache(pool);
    live.acquire('/a', () => {});
    live.acquire('/a', () => {});
    live.acquire('/b', () => {});
    replay.acquire('/a', () => {});
    expect(io.calls).toEqual(['load /a', 'load /b']);
    await io.finish('load /a');
    await io.finish('load /b');
    expect(live.loadedCount).toBe(2);
    live.destroy();
    // The replay still shows /a; /b had no one else.
    expect(io.calls).toEqual(['load /a', 'load /b', 'unload /b']);
    expect(replay.loadedCount).toBe(1);
    replay.destroy();
    expect(io.calls.at(-1)).toBe('unload /a');
  });

  it('once destroyed, hands out nothing, not even a texture that was on its way', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const cache = new ThumbnailCache(pool);
    const other = new ThumbnailCache(pool);
    const a = square();
    const b = square();
    cache.acquire('/a', a.ready);
    // Another tree waits for the same picture, so the load goes on.
    other.acquire('/a', b.ready);
    cache.destroy();
    await io.finish('load /a');
    expect(a.got).toEqual([]);
    expect(b.got).toEqual([io.textures.get('/a')]);
    const c = square();
    cache.acquire('/c', c.ready);
    expect(io.calls).not.toContain('load /c');
  });

  it('gives back only what it holds', async () => {
    const io = heldLoader();
    const pool = new TexturePool(io.loader);
    const mine = new ThumbnailCache(pool);
    const other = new ThumbnailCache(pool);
    other.acquire('/a', () => {});
    await io.finish('load /a');
    mine.release('/a');
    expect(pool.loaded).toBe(1);
    expect(io.calls).toEqual(['load /a']);
  });
});
