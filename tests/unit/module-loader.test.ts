/**
 * The loaders of modules that come after the first view (client/app/module-loader.ts): a load something waits for
 * keeps its answer and says it is awaited while it runs (a failure then may reload the page, client-updates.ts); a
 * load fetched ahead of need is not awaited, and its failure is forgotten so that the next request asks again.
 */
import { describe, expect, it } from 'vitest';
import { aLoadIsAwaited, moduleLoader } from '#client/app/module-loader.ts';

/** A load whose answers the test gives, counting how often it was asked. */
function controlledLoad() {
  const settle: { resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  let asked = 0;
  const load = () => {
    asked++;
    return new Promise<string>((resolve, reject) => settle.push({ resolve, reject }));
  };
  return { load, settle, asked: () => asked };
}

/** Lets the promise reactions queued so far run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a module loader', () => {
  it('loads once for every start, says it is awaited until the module is here, then answers it at once', async () => {
    const { load, settle, asked } = controlledLoad();
    const loader = moduleLoader(load);
    const first = loader.start();
    const second = loader.start();
    expect(asked()).toBe(1);
    expect(aLoadIsAwaited()).toBe(true);
    expect(loader.current()).toBeNull();
    settle[0]!.resolve('module');
    expect(await first).toBe('module');
    expect(await second).toBe('module');
    await settled();
    expect(aLoadIsAwaited()).toBe(false);
    expect(loader.current()).toBe('module');
  });

  it('keeps the failure of a load something waited for: a later start answers it without asking again', async () => {
    const { load, settle, asked } = controlledLoad();
    const loader = moduleLoader(load);
    const first = loader.start();
    settle[0]!.reject(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    await settled();
    expect(aLoadIsAwaited()).toBe(false);
    await expect(loader.start()).rejects.toThrow('gone');
    expect(asked()).toBe(1);
  });

  it('does not count a prefetch as awaited, and forgets its failure: the next start asks again', async () => {
    const { load, settle, asked } = controlledLoad();
    const loader = moduleLoader(load);
    loader.prefetch();
    loader.prefetch();
    expect(asked()).toBe(1);
    expect(aLoadIsAwaited()).toBe(false);
    settle[0]!.reject(new Error('offline'));
    await settled();
    const asking = loader.start();
    expect(asked()).toBe(2);
    expect(aLoadIsAwaited()).toBe(true);
    settle[1]!.resolve('module');
    expect(await asking).toBe('module');
    await settled();
    expect(aLoadIsAwaited()).toBe(false);
  });

  it('counts a prefetch as awaited once a start joins it, and then keeps its failure', async () => {
    const { load, settle, asked } = controlledLoad();
    const loader = moduleLoader(load);
    loader.prefetch();
    const joined = loader.start();
    expect(asked()).toBe(1);
    expect(aLoadIsAwaited()).toBe(true);
    settle[0]!.reject(new Error('gone'));
    await expect(joined).rejects.toThrow('gone');
    await settled();
    expect(aLoadIsAwaited()).toBe(false);
    await expect(loader.start()).rejects.toThrow('gone');
    expect(asked()).toBe(1);
  });
});
