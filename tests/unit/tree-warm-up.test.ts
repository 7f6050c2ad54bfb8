/**
 * The renderer's warm-up (client/tree/engine/warm-up.ts): before any tree is here, one throwaway square, filled and
 * stroked (both kinds of drawing the squares use), is put in the world, rendered once, and taken away again.
 */
import { describe, expect, it } from 'vitest';
import { Container, Graphics } from 'pixi.js';
import { warmUpRenderer } from '#client/tree/engine/warm-up.ts';
import { paintsOf } from '../helpers/pixi-paint.ts';

describe('the warm-up', () => {
  it('renders a filled and stroked square in the world, then leaves the world as it was', () => {
    const world = new Container();
    const kept = new Graphics();
    world.addChild(kept);
    const rendered: string[][] = [];
    warmUpRenderer(
      {
        render: () => {
          const probe = world.children.find((child) => child !== kept) as Graphics;
          rendered.push(paintsOf(probe).map((paint) => paint.action));
        },
      },
      world,
    );
    expect(rendered).toEqual([['fill', 'stroke']]);
    expect(world.children).toEqual([kept]);
  });
});
