/**
 * What the tree engine is given (client/tree/engine/engine-options.ts): a type only, so checked by the type check
 * (`npx tsc --noEmit`, the first step of `npm test`). The page may leave out every callback and the region loader
 * (a small tree carries its details), but never the Pixi application, the world and overlay layers and the
 * keyboard's element; every callback gets what the page needs of it.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Application, Container } from 'pixi.js';
import type { Camera } from '#shared/tree/camera.ts';
import type { CellHit } from '#client/tree/engine/canvas-tree.ts';
import type { TreeEngineOptions } from '#client/tree/engine/engine-options.ts';
import type { FetchRegion } from '#client/tree/engine/region-loader.ts';

/** The keys of T a caller must give. */
type RequiredKeys<T> = keyof { [K in keyof T as undefined extends T[K] ? never : K]: T[K] };

describe('the engine options', () => {
  it('require only the application, the two layers and the keyboard’s element', () => {
    expectTypeOf<RequiredKeys<TreeEngineOptions>>().toEqualTypeOf<'app' | 'world' | 'overlay' | 'keyTarget'>();
    expectTypeOf<TreeEngineOptions['app']>().toEqualTypeOf<Application>();
    expectTypeOf<TreeEngineOptions['world']>().toEqualTypeOf<Container>();
    expectTypeOf<TreeEngineOptions['overlay']>().toEqualTypeOf<Container>();
    expectTypeOf<TreeEngineOptions['keyTarget']>().toEqualTypeOf<HTMLElement>();
  });

  it('hand the page a hit, the camera, the scale, the focus with its context and the notice’s words', () => {
    expectTypeOf<NonNullable<TreeEngineOptions['onCellTap']>>().parameters.toEqualTypeOf<[CellHit]>();
    expectTypeOf<NonNullable<TreeEngineOptions['onCameraChange']>>().parameters.toEqualTypeOf<[Camera]>();
    expectTypeOf<NonNullable<TreeEngineOptions['onScaleChange']>>().parameters.toEqualTypeOf<[number]>();
    expectTypeOf<NonNullable<TreeEngineOptions['onDraggingChange']>>().parameters.toEqualTypeOf<[boolean]>();
    expectTypeOf<NonNullable<TreeEngineOptions['onFocusChange']>>().parameters.toEqualTypeOf<
      [CellHit | null, ({ fresh: boolean; note?: string } | undefined)?]
    >();
    expectTypeOf<NonNullable<TreeEngineOptions['onNotice']>>().parameters.toEqualTypeOf<[string]>();
    expectTypeOf<NonNullable<TreeEngineOptions['fetchRegion']>>().toEqualTypeOf<FetchRegion>();
  });
});
