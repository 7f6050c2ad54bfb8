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
  name: string;
  worldY: number;
  view: Container | null;
}

/** A label pill's height in screen pixels; it is centred on its band's line. */
const LABEL_HEIGHT = 18;
/** Labels this far (screen pixels) past the top or bottom edge still show, so none pops in at the edge. */
const LABEL_SLACK = 20;
/** A label's distance from the canvas's left edge. */
const LABEL_LEFT = 10;

/**
 * Where a band's label goes on screen under `camera`: its pill centred on the band's line at the left edge, shown
 * while the line is on screen or just past an edge. Pure, so the rule is testable without drawing text.
 */
export function labelPlacement(
  camera: Camera,
  worldY: number,
  viewportHeight: number,
): { x: number; y: number; visible: boolean } {
  const y = worldToScreen(camera, { x: 0, y: worldY }).y;
  return {
    x: LABEL_LEFT,
    y: Math.round(y - LABEL_HEIGHT / 2),
    visible: y > -LABEL_SLACK && y < viewportHeight + LABEL_SLACK,
  };
}

/**
 * The strips live in the world; their labels live in screen space so they stay small and readable at every zoom and
 * cling to the left edge. The labels' text is made when they are first placed (the first frame that shows the tree),
 * not with the strips: a tree can be built, asked about and set aside without measuring any text.
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
    for (const divider of dividers) this.bandLabels.push({ name: divider.name, worldY: divider.labelY, view: null });
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
      .roundRect(0, 0, Math.ceil(text.width) + padX * 2, LABEL_HEIGHT, LABEL_HEIGHT / 2)
      .fill({ color: PALETTE.background })
      .stroke({ width: 1, color: PALETTE.bandLine });
    text.position.set(padX, Math.round((LABEL_HEIGHT - text.height) / 2));
    view.addChild(pill, text);
    this.labels.addChild(view);
    return view;
  }

  /** Moves the labels to their bands' screen heights; hides those off screen. */
  place(camera: Camera, viewportHeight: number): void {
    for (const label of this.bandLabels) {
      const { x, y, visible } = labelPlacement(camera, label.worldY, viewportHeight);
      label.view ??= this.makeLabel(label.name);
      label.view.visible = visible;
      label.view.position.set(x, y);
    }
  }

  destroy(): void {
    this.strips.destroy();
    this.labels.destroy({ children: true });
  }
}
