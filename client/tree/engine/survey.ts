/**
 * The tree told in words for the survey beside the canvas (tree-survey.tsx): what the squares of a rectangle of
 * positions are (only the view's, so its cost follows the screen), how many squares of each kind each band holds
 * (one pass over the arrays, redone only after the tree changed), and the sentences a screen reader hears.
 */
import { CellStatus } from '#shared/domain.ts';
import { isTrunkColumn, type TreeSettings } from '#shared/tree/geometry.ts';
import { bandIndexOf, bandLabel, bandRows, type BandName } from './far-moves.ts';
import type { Position } from './focus.ts';

export interface StatusCounts {
  published: number;
  reserved: number;
  available: number;
  /** Pending squares: not yet connected to a published piece. */
  unavailable: number;
}

export interface SurveyPiece {
  row: number;
  column: number;
  /** Null until a large tree's region has told it. */
  token: string | null;
  /** Null until the piece's region has been loaded. */
  title: string | null;
  artist: string | null;
}

/** What the view holds. */
export interface ViewSurvey {
  rowFrom: number;
  rowTo: number;
  columnFrom: number;
  columnTo: number;
  counts: StatusCounts;
  /** The published pieces in reading order, at most the limit asked for. */
  pieces: SurveyPiece[];
  /** All published pieces in view (more than `pieces` holds when the limit cut the list). */
  piecesTotal: number;
  /** The bands the view reaches, top to bottom. */
  bands: BandName[];
}

export interface BandSurvey {
  name: BandName;
  rowFrom: number;
  rowTo: number;
  counts: StatusCounts;
  /** Of the counts, the squares on branches (outside the trunk's columns): the trunk band's only. */
  branches: StatusCounts | null;
}

export function emptyCounts(): StatusCounts {
  return { published: 0, reserved: 0, available: 0, unavailable: 0 };
}

/** Adds one square of a status (a CellStatus; anything else, such as the replay's hidden cells, is not counted). */
export function countStatus(counts: StatusCounts, status: number): void {
  if (status === CellStatus.Published) counts.published++;
  else if (status === CellStatus.Reserved) counts.reserved++;
  else if (status === CellStatus.Available) counts.available++;
  else if (status === CellStatus.Pending) counts.unavailable++;
}

/** What the survey needs of the decoded snapshot (TreeCells satisfies it). */
export interface SurveyCells {
  count: number;
  row: ArrayLike<number>;
  col: ArrayLike<number>;
  status: ArrayLike<number>;
}

/** Squares of each kind in each band (branch slots count as available): one pass over the cells and the slots. */
export function surveyBands(settings: TreeSettings, cells: SurveyCells, slots: readonly Position[]): BandSurvey[] {
  const bands = bandRows(settings);
  const out: BandSurvey[] = bands.map((band) => ({
    ...band,
    counts: emptyCounts(),
    branches: band.name === 'trunk' ? emptyCounts() : null,
  }));
  const add = (row: number, column: number, status: number) => {
    const band = out[bandIndexOf(bands, row)];
    if (!band || row < band.rowFrom || row > band.rowTo) return;
    countStatus(band.counts, status);
    if (band.branches && !isTrunkColumn(settings, column)) countStatus(band.branches, status);
  };
  for (let i = 0; i < cells.count; i++) add(cells.row[i]!, cells.col[i]!, cells.status[i]!);
  for (const slot of slots) add(slot.row, slot.column, CellStatus.Available);
  return out;
}

/** "12 published pieces, 3 available squares, 1 reserved square and 20 unavailable squares", or "no squares". */
export function countsText(counts: StatusCounts): string {
  const parts: string[] = [];
  const say = (n: number, one: string, many: string) =>
    n > 0 && parts.push(`${n.toLocaleString('en')} ${n === 1 ? one : many}`);
  say(counts.published, 'published piece', 'published pieces');
  say(counts.available, 'available square', 'available squares');
  say(counts.reserved, 'reserved square', 'reserved squares');
  say(counts.unavailable, 'unavailable square', 'unavailable squares');
  if (parts.length === 0) return 'no squares';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** "30 to 41", or "30" for a single one. */
function span(from: number, to: number): string {
  return from === to ? String(from) : `${from} to ${to}`;
}

/** The sentence the survey's "what is here" button says. */
export function viewSummaryText(view: ViewSurvey): string {
  const rows = `${view.rowFrom === view.rowTo ? 'row' : 'rows'} ${span(view.rowFrom, view.rowTo)}`;
  const columns = `${view.columnFrom === view.columnTo ? 'column' : 'columns'} ${span(view.columnFrom, view.columnTo)}`;
  const bands =
    view.bands.length > 0
      ? ` Bands in view: ${view.bands.map((name) => bandLabel(name).toLowerCase()).join(', ')}.`
      : '';
  return `In view: ${rows}, ${columns}: ${countsText(view.counts)}.${bands}`;
}

/** A band's line: "Seed, rows 33 to 34: 8 published pieces and 2 available squares". */
export function bandText(band: BandSurvey): string {
  const branches =
    band.branches && countsText(band.branches) !== 'no squares'
      ? ` (on the branches: ${countsText(band.branches)})`
      : '';
  return `${bandLabel(band.name)}, rows ${span(band.rowFrom, band.rowTo)}: ${countsText(band.counts)}${branches}`;
}

/** A piece's words in the survey's list: "Sunset by Ana Lima, row 30, column 2", or what is known before its title. */
export function pieceText(piece: SurveyPiece, own: boolean): string {
  const name = piece.title
    ? `${piece.title}${piece.artist ? ` by ${piece.artist}` : ''}`
    : 'A published piece (its title is on its way)';
  return `${name}, row ${piece.row}, column ${piece.column}${own ? ' (yours)' : ''}`;
}
