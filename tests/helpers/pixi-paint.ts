/**
 * What a real PixiJS Graphics has been told to paint, read back from its recorded instructions (Graphics records its
 * paths and styles without a renderer, so this runs in Node): each fill or stroke with its colour, alpha and width,
 * and the bounds of every shape it paints, rounded to hundredths; a texture drawn into it, as the rectangle it covers
 * with its tint as the colour (the white texture in a colour is a square of that colour).
 */
import type { Graphics } from 'pixi.js';

export interface Paint {
  /** 'fill', 'stroke', 'texture' (an image, or a tinted white quad), or 'cut' for holes. */
  action: string;
  color: number | undefined;
  alpha: number | undefined;
  width: number | undefined;
  shapes: { type: string; x: number; y: number; width: number; height: number }[];
}

const round = (n: number) => Math.round(n * 100) / 100;

export function paintsOf(graphics: Graphics): Paint[] {
  return graphics.context.instructions.map((instruction) => {
    if (instruction.action === 'texture') {
      const { style, alpha, dx, dy, dw, dh } = instruction.data;
      const shape = { type: 'rectangle', x: round(dx), y: round(dy), width: round(dw), height: round(dh) };
      return { action: 'texture', color: style, alpha, width: undefined, shapes: [shape] };
    }
    const { style, path } = instruction.data;
    return {
      action: instruction.action,
      color: style.color,
      alpha: style.alpha,
      width: 'width' in style ? style.width : undefined,
      shapes: path.shapePath.shapePrimitives.map(({ shape }) => {
        const bounds = shape.getBounds();
        return {
          type: shape.type,
          x: round(bounds.x),
          y: round(bounds.y),
          width: round(bounds.width),
          height: round(bounds.height),
        };
      }),
    };
  });
}
