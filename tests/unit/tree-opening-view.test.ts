/**
 * The tree page's rules for a first look: the zoom a first visit opens at (the trunk's whole width on a phone), when
 * squares show their pictures (counted in device pixels), and the toast naming the square a link opened.
 */
import { describe, expect, it } from 'vitest';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE, centredOn, viewRect } from '#shared/tree/camera.ts';
import { DEFAULT_TREE_SETTINGS, type TreeSettings } from '#shared/tree/geometry.ts';
import { openingScale, seedViewTarget, TRUNK_FIT_MARGIN, trunkWidth } from '#shared/tree/layout.ts';
import { linkedSquareText } from '#client/tree/cell-actions.ts';
import { showsThumbnails, THUMBNAIL_MIN_DEVICE_PX } from '#client/tree/engine/thumbnail-size.ts';
import type { CellHit } from '#client/tree/engine/tree-engine.ts';

const settings: TreeSettings = DEFAULT_TREE_SETTINGS;
const withTrunk = (columns: number): TreeSettings => ({ ...settings, trunk: { ...settings.trunk, columns } });

describe('the zoom a first visit opens at', () => {
  it('is the usual zoom on a screen wide enough for the trunk', () => {
    for (const width of [1280, 800, trunkWidth(settings) + 2 * TRUNK_FIT_MARGIN])
      expect(openingScale(settings, width)).toBe(TREE_VIEW.zoomDefault);
  });

  it('shrinks on a phone just enough for the whole trunk, with a margin each side', () => {
    for (const width of [390, 360, 320]) {
      const scale = openingScale(settings, width);
      expect(scale).toBeLessThan(TREE_VIEW.zoomDefault);
      const view = viewRect(centredOn(seedViewTarget(settings), scale, width, 844), width, 844);
      // The trunk's first column's left edge and last column's right edge are on screen, the margin clear.
      expect(view.x).toBeLessThanOrEqual(-TRUNK_FIT_MARGIN / scale + 1e-6);
      expect(view.x + view.width).toBeGreaterThanOrEqual(trunkWidth(settings) + TRUNK_FIT_MARGIN / scale - 1e-6);
      expect(trunkWidth(settings)).toBe(settings.trunk.columns * CELL_PITCH - (CELL_PITCH - CELL_SIZE));
    }
  });

  it('never goes below the smallest zoom, however wide the trunk or narrow the screen', () => {
    expect(openingScale(withTrunk(40), 390)).toBe(TREE_VIEW.zoomMin);
    expect(openingScale(settings, 0)).toBe(TREE_VIEW.zoomMin);
  });
});

describe('when squares show their pictures', () => {
  it('keeps a plain screen as it was: from zoom 0.75', () => {
    expect(showsThumbnails(0.75, 1)).toBe(true);
    expect(showsThumbnails(0.7, 1)).toBe(false);
    expect(showsThumbnails(TREE_VIEW.zoomMin, 1)).toBe(false);
    expect(CELL_SIZE * 0.75).toBe(THUMBNAIL_MIN_DEVICE_PX);
  });

  it('counts device pixels: a phone shows pictures at zooms where its squares are under the size in CSS pixels', () => {
    // At the smallest zoom a square is 50 CSS pixels: under the threshold in CSS pixels, well over it in device pixels.
    expect(CELL_SIZE * TREE_VIEW.zoomMin).toBeLessThan(THUMBNAIL_MIN_DEVICE_PX);
    expect(showsThumbnails(TREE_VIEW.zoomMin, 2)).toBe(true);
    expect(showsThumbnails(TREE_VIEW.zoomMin, 3)).toBe(true);
    expect(showsThumbnails(0.5, 1.5)).toBe(true);
    expect(showsThumbnails(0.5, 1.25)).toBe(false);
  });

  it('reads a missing or broken pixel ratio as one', () => {
    for (const ratio of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(showsThumbnails(0.75, ratio)).toBe(true);
      expect(showsThumbnails(0.7, ratio)).toBe(false);
    }
  });
});

describe('the toast naming a linked square', () => {
  const hit = (status: number, piece: CellHit['piece'] = null): CellHit => ({
    kind: 'cell',
    row: 12,
    column: 3,
    status,
    token: 'x',
    piece,
  });

  it('says where it is and what it is', () => {
    expect(linkedSquareText(hit(CellStatus.Available))).toBe('Row 12, column 3: available');
    expect(linkedSquareText({ ...hit(CellStatus.Available), kind: 'slot', token: null })).toBe(
      'Row 12, column 3: available',
    );
    expect(linkedSquareText(hit(CellStatus.Reserved))).toBe('Row 12, column 3: reserved');
    expect(linkedSquareText(hit(CellStatus.Pending))).toBe('Row 12, column 3: not open yet');
  });

  it('names a published piece by its title and artist once they are known', () => {
    expect(linkedSquareText(hit(CellStatus.Published, { title: 'Tide', artist: 'Ana' }))).toBe(
      'Row 12, column 3: Tide by Ana',
    );
    expect(linkedSquareText(hit(CellStatus.Published, { title: 'Tide', artist: '' }))).toBe('Row 12, column 3: Tide');
    expect(linkedSquareText(hit(CellStatus.Published))).toBe('Row 12, column 3: a published piece');
  });
});
