/**
 * The tree's keyboard beyond the arrows and its survey in words, as pure rules: which key does what, where each long
 * move lands on a small made-up tree, what the tree's edge says, and the counts and sentences of the survey.
 */
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { CellStatus } from '#shared/domain.ts';
import { DEFAULT_TREE_SETTINGS, bandStarts } from '#shared/tree/geometry.ts';
import { keyCommand } from '#client/tree/engine/input.ts';
import {
  bandIndexOf,
  bandRows,
  bandStep,
  edgeText,
  farEdgeText,
  nearestInRow,
  nextInList,
  nextInReadingOrder,
  pageStep,
  rowEnd,
  type GridExtent,
} from '#client/tree/engine/far-moves.ts';
import {
  bandText,
  countsText,
  pieceText,
  surveyBands,
  viewSummaryText,
  type ViewSurvey,
} from '#client/tree/engine/survey.ts';
import { Signal } from '#client/app/signal.ts';
import { TreeSurvey } from '#client/tree/tree-survey.tsx';

/**
 * A made-up tree drawn as text, one line a row from row 0, column -2 at the left: P published, A available, R
 * reserved, U unavailable (pending), '.' nothing.
 */
const PICTURE = [
  '..P....', // 0
  '.......', // 1
  'U.PA.R.', // 2
  '..P..P.', // 3
  '.......', // 4
  '.......', // 5
  'A.P.P.A', // 6
];
const FIRST_COLUMN = -2;
const extent: GridExtent = {
  minRow: 0,
  maxRow: PICTURE.length - 1,
  minColumn: FIRST_COLUMN,
  maxColumn: FIRST_COLUMN + PICTURE[0]!.length - 1,
};
const at = (row: number, column: number) => PICTURE[row]?.[column - FIRST_COLUMN] ?? '.';
const has = (row: number, column: number) => at(row, column) !== '.';
const published = (row: number, column: number) => at(row, column) === 'P';

describe('the keys of the focused canvas', () => {
  it('maps arrows, Enter, zoom and the long moves, Shift turning B, P and F the other way', () => {
    expect(keyCommand('ArrowLeft', false)).toEqual({ kind: 'step', dRow: 0, dColumn: -1 });
    expect(keyCommand('ArrowDown', true)).toEqual({ kind: 'step', dRow: 1, dColumn: 0 });
    expect(keyCommand('Enter', false)).toEqual({ kind: 'activate' });
    expect(keyCommand(' ', false)).toEqual({ kind: 'activate' });
    expect(keyCommand('+', true)).toEqual({ kind: 'zoom', direction: 1 });
    expect(keyCommand('-', false)).toEqual({ kind: 'zoom', direction: -1 });
    expect(keyCommand('Home', false)).toEqual({ kind: 'far', move: { kind: 'row-end', direction: -1 } });
    expect(keyCommand('End', false)).toEqual({ kind: 'far', move: { kind: 'row-end', direction: 1 } });
    expect(keyCommand('PageUp', false)).toEqual({ kind: 'far', move: { kind: 'page', direction: -1 } });
    expect(keyCommand('PageDown', false)).toEqual({ kind: 'far', move: { kind: 'page', direction: 1 } });
    expect(keyCommand('b', false)).toEqual({ kind: 'far', move: { kind: 'band', direction: 1 } });
    expect(keyCommand('B', true)).toEqual({ kind: 'far', move: { kind: 'band', direction: -1 } });
    expect(keyCommand('p', false)).toEqual({ kind: 'far', move: { kind: 'next', what: 'published', direction: 1 } });
    expect(keyCommand('P', true)).toEqual({ kind: 'far', move: { kind: 'next', what: 'published', direction: -1 } });
    expect(keyCommand('f', false)).toEqual({ kind: 'far', move: { kind: 'next', what: 'free', direction: 1 } });
    expect(keyCommand('F', true)).toEqual({ kind: 'far', move: { kind: 'next', what: 'free', direction: -1 } });
    // Caps Lock without Shift is still forwards.
    expect(keyCommand('F', false)).toEqual({ kind: 'far', move: { kind: 'next', what: 'free', direction: 1 } });
    for (const key of ['Tab', 'Escape', 'a', 'x', 'F5', 'Shift']) expect(keyCommand(key, false), key).toBeNull();
  });
});

describe('the long moves', () => {
  it('Home and End reach the first and last square of the row, and nothing past them', () => {
    expect(rowEnd(has, extent, { row: 2, column: 1 }, -1)).toEqual({ row: 2, column: -2 });
    expect(rowEnd(has, extent, { row: 2, column: 1 }, 1)).toEqual({ row: 2, column: 3 });
    expect(rowEnd(has, extent, { row: 2, column: -2 }, -1)).toBeNull();
    expect(rowEnd(has, extent, { row: 2, column: 3 }, 1)).toBeNull();
  });

  it('finds the square of a row nearest a column, the left one of two as near', () => {
    expect(nearestInRow(has, extent, 6, 1)).toEqual({ row: 6, column: 0 });
    expect(nearestInRow(has, extent, 3, 4)).toEqual({ row: 3, column: 3 });
    expect(nearestInRow(has, extent, 4, 0)).toBeNull();
  });

  it('Page Down and Up go a screenful of rows, back towards the start when that row is empty, and stop at the edge', () => {
    expect(pageStep(has, extent, { row: 0, column: 0 }, 3, 1)).toEqual({ row: 3, column: 0 });
    // Row 4 is empty: the nearest row back towards the start that has a square.
    expect(pageStep(has, extent, { row: 2, column: 1 }, 2, 1)).toEqual({ row: 3, column: 0 });
    // Past the last row: the last row.
    expect(pageStep(has, extent, { row: 3, column: 3 }, 10, 1)).toEqual({ row: 6, column: 2 });
    expect(pageStep(has, extent, { row: 6, column: 0 }, 3, -1)).toEqual({ row: 3, column: 0 });
    expect(pageStep(has, extent, { row: 6, column: 0 }, 3, 1)).toBeNull();
    expect(pageStep(has, extent, { row: 0, column: 0 }, 3, -1)).toBeNull();
  });

  it('P and Shift+P find the next and the previous published piece in reading order', () => {
    expect(nextInReadingOrder(published, extent, { row: 0, column: 0 }, 1)).toEqual({ row: 2, column: 0 });
    expect(nextInReadingOrder(published, extent, { row: 3, column: 0 }, 1)).toEqual({ row: 3, column: 3 });
    expect(nextInReadingOrder(published, extent, { row: 3, column: 3 }, 1)).toEqual({ row: 6, column: 0 });
    expect(nextInReadingOrder(published, extent, { row: 6, column: 0 }, -1)).toEqual({ row: 3, column: 3 });
    expect(nextInReadingOrder(published, extent, { row: 6, column: 2 }, 1)).toBeNull();
    expect(nextInReadingOrder(published, extent, { row: 0, column: 0 }, -1)).toBeNull();
  });

  it('F and Shift+F find the next and the previous free square in the sorted list', () => {
    const free = [
      { row: 2, column: 1 },
      { row: 6, column: -2 },
      { row: 6, column: 4 },
    ];
    expect(nextInList(free, { row: 0, column: 0 }, 1)).toEqual({ row: 2, column: 1 });
    expect(nextInList(free, { row: 2, column: 1 }, 1)).toEqual({ row: 6, column: -2 });
    expect(nextInList(free, { row: 6, column: 0 }, 1)).toEqual({ row: 6, column: 4 });
    expect(nextInList(free, { row: 6, column: 4 }, 1)).toBeNull();
    expect(nextInList(free, { row: 6, column: 4 }, -1)).toEqual({ row: 6, column: -2 });
    expect(nextInList(free, { row: 6, column: 0 }, -1)).toEqual({ row: 6, column: -2 });
    expect(nextInList(free, { row: 2, column: 1 }, -1)).toBeNull();
    expect(nextInList([], { row: 2, column: 1 }, 1)).toBeNull();
  });

  it('B and Shift+B jump to the first row with a square of the next band down or up, skipping empty bands', () => {
    const bands = [
      { name: 'crown' as const, rowFrom: 0, rowTo: 1 },
      { name: 'trunk' as const, rowFrom: 2, rowTo: 3 },
      { name: 'seed' as const, rowFrom: 4, rowTo: 4 },
      { name: 'roots' as const, rowFrom: 5, rowTo: 6 },
    ];
    expect(bandIndexOf(bands, 3)).toBe(1);
    expect(bandIndexOf(bands, 40)).toBe(3);
    expect(bandStep(has, extent, bands, { row: 0, column: 0 }, 1)).toEqual({
      position: { row: 2, column: 0 },
      band: bands[1],
    });
    // The seed band has no square: on to the roots, whose first row with one is row 6.
    expect(bandStep(has, extent, bands, { row: 3, column: 3 }, 1)).toEqual({
      position: { row: 6, column: 2 },
      band: bands[3],
    });
    expect(bandStep(has, extent, bands, { row: 6, column: 2 }, -1)).toEqual({
      position: { row: 2, column: 1 },
      band: bands[1],
    });
    expect(bandStep(has, extent, bands, { row: 2, column: 1 }, -1)).toEqual({
      position: { row: 0, column: 0 },
      band: bands[0],
    });
    expect(bandStep(has, extent, bands, { row: 0, column: 0 }, -1)).toBeNull();
    expect(bandStep(has, extent, bands, { row: 6, column: 0 }, 1)).toBeNull();
  });

  it("takes the bands from the tree's settings, top to bottom", () => {
    const b = bandStarts(DEFAULT_TREE_SETTINGS);
    expect(bandRows(DEFAULT_TREE_SETTINGS)).toEqual([
      { name: 'crown', rowFrom: 0, rowTo: b.trunk - 1 },
      { name: 'trunk', rowFrom: b.trunk, rowTo: b.seed - 1 },
      { name: 'seed', rowFrom: b.seed, rowTo: b.roots - 1 },
      { name: 'roots', rowFrom: b.roots, rowTo: b.end - 1 },
    ]);
    expect(bandRows({ ...DEFAULT_TREE_SETTINGS, crown: { rows: 0 } }).map((band) => band.name)).toEqual([
      'trunk',
      'seed',
      'roots',
    ]);
  });

  it('says where the tree ends', () => {
    expect(edgeText(0, -1)).toBe('Edge of the tree: no more columns to the left.');
    expect(edgeText(0, 1)).toBe('Edge of the tree: no more columns to the right.');
    expect(edgeText(-1, 0)).toBe('Edge of the tree: no more rows above.');
    expect(edgeText(1, 0)).toBe('Edge of the tree: no more rows below.');
    expect(farEdgeText({ kind: 'row-end', direction: -1 })).toBe('Edge of the tree: no more columns to the left.');
    expect(farEdgeText({ kind: 'page', direction: 1 })).toBe('Edge of the tree: no more rows below.');
    expect(farEdgeText({ kind: 'band', direction: -1 })).toBe('Edge of the tree: no band above this one.');
    expect(farEdgeText({ kind: 'next', what: 'free', direction: 1 })).toBe(
      'Edge of the tree: no free square after this square.',
    );
  });
});

describe('the survey in words', () => {
  it('counts the squares of each band by kind, branch slots as available, the trunk band with its branches apart', () => {
    const settings = DEFAULT_TREE_SETTINGS;
    const b = bandStarts(settings);
    const cells = [
      { row: 1, column: 2, status: CellStatus.Published }, // crown
      { row: b.trunk, column: 2, status: CellStatus.Published }, // trunk
      { row: b.trunk + 1, column: -3, status: CellStatus.Published }, // a branch
      { row: b.trunk + 2, column: 1, status: CellStatus.Reserved },
      { row: b.seed, column: 0, status: CellStatus.Available },
      { row: b.roots + 1, column: 4, status: CellStatus.Pending },
      { row: b.roots + 2, column: 4, status: 9 }, // hidden by the replay: not counted
    ];
    const arrays = {
      count: cells.length,
      row: cells.map((c) => c.row),
      col: cells.map((c) => c.column),
      status: cells.map((c) => c.status),
    };
    const bands = surveyBands(settings, arrays, [{ row: b.trunk + 1, column: -4 }]);
    expect(bands.map((band) => [band.name, band.counts])).toEqual([
      ['crown', { published: 1, reserved: 0, available: 0, unavailable: 0 }],
      ['trunk', { published: 2, reserved: 1, available: 1, unavailable: 0 }],
      ['seed', { published: 0, reserved: 0, available: 1, unavailable: 0 }],
      ['roots', { published: 0, reserved: 0, available: 0, unavailable: 1 }],
    ]);
    expect(bands[1]!.branches).toEqual({ published: 1, reserved: 0, available: 1, unavailable: 0 });
    expect(bands[0]!.branches).toBeNull();
    expect(bandText(bands[1]!)).toBe(
      `Trunk and branches, rows ${b.trunk} to ${b.seed - 1}: 2 published pieces, 1 available square and 1 reserved square (on the branches: 1 published piece and 1 available square)`,
    );
    expect(bandText(bands[0]!)).toBe(`Crown, rows 0 to ${b.trunk - 1}: 1 published piece`);
  });

  it('says counts, a view and a piece in words', () => {
    expect(countsText({ published: 0, reserved: 0, available: 0, unavailable: 0 })).toBe('no squares');
    expect(countsText({ published: 1200, reserved: 0, available: 0, unavailable: 0 })).toBe('1,200 published pieces');
    const view: ViewSurvey = {
      rowFrom: 30,
      rowTo: 41,
      columnFrom: -3,
      columnTo: 9,
      counts: { published: 12, reserved: 1, available: 3, unavailable: 20 },
      pieces: [],
      piecesTotal: 12,
      bands: ['trunk', 'seed'],
    };
    expect(viewSummaryText(view)).toBe(
      'In view: rows 30 to 41, columns -3 to 9: 12 published pieces, 3 available squares, 1 reserved square and 20 unavailable squares. Bands in view: trunk and branches, seed.',
    );
    expect(viewSummaryText({ ...view, rowTo: 30, bands: ['seed'] })).toMatch(
      /^In view: row 30, columns -3 to 9: .* Bands in view: seed\.$/,
    );
    expect(pieceText({ row: 30, column: 2, token: 'x', title: 'Sunset', artist: 'Ana Lima' }, false)).toBe(
      'Sunset by Ana Lima, row 30, column 2',
    );
    expect(pieceText({ row: 30, column: -2, token: 'x', title: null, artist: null }, true)).toBe(
      'A published piece (its title is on its way), row 30, column -2 (yours)',
    );
  });
});

/** A page's text as sentences: each element's text, split after a full stop or a question mark. */
function sentencesOf(html: string): string[] {
  return html
    .replace(/<[^>]*>/g, '\n')
    .replace(/&#x27;/g, "'")
    .split(/\n|(?<=[.?!])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

describe('the survey as a screen reader reads it', () => {
  it('says a sentence once: while there is no tree yet, "still loading" is said once, not under every heading', () => {
    const html = renderToStaticMarkup(
      createElement(TreeSurvey, {
        engine: null,
        signal: new Signal(),
        ownTokens: new Set<string>(),
        onOpenPiece: () => {},
      }),
    );
    const sentences = sentencesOf(html);
    expect(sentences).toContain('The tree is still loading.');
    expect(sentences.filter((sentence, i) => sentences.indexOf(sentence) !== i)).toEqual([]);
  });
});
