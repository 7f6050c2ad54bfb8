/**
 * The keyboard's way around the tree (decision 010), as pure functions over "is there a square here?": the square
 * nearest a point to start from, and the next square in a direction (gaps in the branches are skipped, so every
 * press lands on something that can be opened).
 */

export interface Position {
  row: number;
  column: number;
}

export type HasSquare = (row: number, column: number) => boolean;

/** How far a focus move looks along its line for the next square before giving up. */
export const FOCUS_REACH = 64;

/** The next square from `from` in the direction (dRow, dColumn), or null when there is none within reach. */
export function stepFocus(hasSquare: HasSquare, from: Position, dRow: number, dColumn: number): Position | null {
  for (let k = 1; k <= FOCUS_REACH; k++) {
    const row = from.row + k * dRow;
    const column = from.column + k * dColumn;
    if (hasSquare(row, column)) return { row, column };
  }
  return null;
}

/** The square nearest to `centre` (by rings of growing distance), or null when none lies within `radius`. */
export function nearestSquare(hasSquare: HasSquare, centre: Position, radius = 40): Position | null {
  if (hasSquare(centre.row, centre.column)) return centre;
  for (let ring = 1; ring <= radius; ring++) {
    let best: Position | null = null;
    let bestDistance = Infinity;
    for (let dr = -ring; dr <= ring; dr++) {
      for (let dc = -ring; dc <= ring; dc++) {
        if (Math.max(Math.abs(dr), Math.abs(dc)) !== ring) continue;
        const row = centre.row + dr;
        const column = centre.column + dc;
        const distance = dr * dr + dc * dc;
        if (distance < bestDistance && hasSquare(row, column)) {
          best = { row, column };
          bestDistance = distance;
        }
      }
    }
    if (best) return best;
  }
  return null;
}
