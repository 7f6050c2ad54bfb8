/**
 * The four divider bands (docs/product.md, Growth of the tree): thin full-width strips in the gap above the first row
 * of the trunk, the branch start, the seed and the roots, plus a faint ground tint under the roots.
 */
import { Container, Graphics, Text } from 'pixi.js';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { type Camera, type Rect, worldToScreen } from '#shared/tree/camera.ts';
import { PALETTE, STRIP_COLOURS } from '#shared/tree/cell-look.ts';
import { bandStrips } from '#shared/tree/layout.ts';

interface BandLabel {
  worldY: number;
  view: Container;
}

/**
 * The strips live in the world; their labels live in screen space so they stay small and readable at every zoom and
 * cling to the left edge.
 */
export class DividerBands {
  readonly strips = new Graphics();
  readonly labels = new Container();
  private readonly bandLabels: BandLabel[] = [];

  constructor(settings: TreeSettings, worldBounds: Rect) {
    this.strips.label = 'divider bands';
    this.labels.label = 'divider labels';
    const { strips, dividers } = bandStrips(settings, worldBounds);
    for (const strip of strips)
      this.strips.rect(strip.x, strip.y, strip.width, strip.height).fill({ color: STRIP_COLOURS[strip.kind] });
    for (const divider of dividers)
      this.bandLabels.push({ worldY: divider.labelY, view: this.makeLabel(divider.name) });
  }

  private makeLabel(name: string): Container {
    const view = new Container({ label: `band ${name}` });
    const text = new Text({
      text: name,
      style: {
        fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif',
        fontSize: 11,
        fill: PALETTE.ink,
        letterSpacing: 0.8,
      },
      resolution: Math.max(2, globalThis.devicePixelRatio || 1),
    });
    text.alpha = 0.75;
    const padX = 7;
    const pill = new Graphics()
      .roundRect(0, 0, Math.ceil(text.width) + padX * 2, 18, 9)
      .fill({ color: PALETTE.background })
      .stroke({ width: 1, color: PALETTE.bandLine });
    text.position.set(padX, Math.round((18 - text.height) / 2));
    view.addChild(pill, text);
    this.labels.addChild(view);
    return view;
  }

  /** Moves the labels to their bands' screen heights; hides those off screen. */
  place(camera: Camera, viewportHeight: number): void {
    for (const label of this.bandLabels) {
      const y = worldToScreen(camera, { x: 0, y: label.worldY }).y;
      label.view.visible = y > -20 && y < viewportHeight + 20;
      label.view.position.set(10, Math.round(y - 9));
    }
  }

  destroy(): void {
    this.strips.destroy();
    this.labels.destroy({ children: true });
  }
}
