/**
 * Renders one throwaway square (filled and stroked) before any tree is here, so the renderer compiles its shaders
 * while the snapshot is still on its way rather than in the first real frame.
 */
import { Graphics, type Application, type Container } from 'pixi.js';
import { PALETTE } from '#shared/tree/cell-look.ts';

export function warmUpRenderer(app: Pick<Application, 'render'>, world: Container): void {
  const probe = new Graphics()
    .rect(0, 0, 2, 2)
    .fill({ color: PALETTE.background })
    .stroke({ width: 1, color: PALETTE.background });
  world.addChild(probe);
  app.render();
  probe.destroy();
}
