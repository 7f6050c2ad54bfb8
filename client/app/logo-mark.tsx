/**
 * Our mark: a small tree of squares on a five-column grid, every square touching a neighbour by a side or a corner,
 * as pieces on the real tree do. The header, the footer and the preloader draw the same squares; the preloader
 * assembles them in `order`, from the seed upwards.
 */
import type { CSSProperties } from 'react';

export interface MarkSquare {
  column: number;
  row: number;
  /** A CSS colour variable name, so the palette lives in the stylesheet. */
  tone: 'accent' | 'sage' | 'ochre' | 'clay' | 'slate' | 'plum' | 'bark' | 'root';
  /** Position in the assembly, 0 first. */
  order: number;
}

export const MARK_SQUARES: readonly MarkSquare[] = [
  { column: 2, row: 5, tone: 'bark', order: 0 },
  { column: 1, row: 6, tone: 'root', order: 1 },
  { column: 3, row: 6, tone: 'root', order: 2 },
  { column: 2, row: 4, tone: 'bark', order: 3 },
  { column: 2, row: 3, tone: 'accent', order: 4 },
  { column: 1, row: 3, tone: 'ochre', order: 5 },
  { column: 3, row: 3, tone: 'slate', order: 6 },
  { column: 2, row: 2, tone: 'sage', order: 7 },
  { column: 0, row: 2, tone: 'plum', order: 8 },
  { column: 4, row: 2, tone: 'clay', order: 9 },
  { column: 1, row: 1, tone: 'accent', order: 10 },
  { column: 3, row: 1, tone: 'ochre', order: 11 },
  { column: 2, row: 1, tone: 'clay', order: 12 },
  { column: 2, row: 0, tone: 'sage', order: 13 },
];

/** The small mark of the header, the footer and the favicon: the same tree with only its crown, trunk and seed. */
export const COMPACT_SQUARES: readonly MarkSquare[] = [
  { column: 1, row: 0, tone: 'sage', order: 0 },
  { column: 0, row: 1, tone: 'accent', order: 1 },
  { column: 1, row: 1, tone: 'clay', order: 2 },
  { column: 2, row: 1, tone: 'ochre', order: 3 },
  { column: 1, row: 2, tone: 'slate', order: 4 },
  { column: 1, row: 3, tone: 'bark', order: 5 },
];

const PITCH = 20;
const SIZE = 16;
const viewBox = (columns: number, rows: number) =>
  `0 0 ${columns * PITCH - (PITCH - SIZE)} ${rows * PITCH - (PITCH - SIZE)}`;

interface LogoMarkProps {
  className?: string;
  /** Adds per-square classes and the order as --i, for the preloader's assembly. */
  animated?: boolean;
  /** An accessible name; without one the mark is decorative. */
  title?: string;
  /** 'compact' for small sizes, where the full tree's squares would be specks. */
  variant?: 'full' | 'compact';
}

export function LogoMark({ className, animated = false, title, variant = 'full' }: LogoMarkProps) {
  const squares = variant === 'compact' ? COMPACT_SQUARES : MARK_SQUARES;
  return (
    <svg
      className={className ? `logo-mark ${className}` : 'logo-mark'}
      viewBox={variant === 'compact' ? viewBox(3, 4) : viewBox(5, 7)}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      {squares.map((square) => (
        <rect
          key={`${square.column}:${square.row}`}
          className={
            animated
              ? `logo-mark__square logo-mark__square--${square.tone} is-assembling`
              : `logo-mark__square logo-mark__square--${square.tone}`
          }
          x={square.column * PITCH}
          y={square.row * PITCH}
          width={SIZE}
          height={SIZE}
          rx={variant === 'compact' ? 3 : 2.5}
          style={animated ? ({ '--i': square.order } as CSSProperties) : undefined}
        />
      ))}
    </svg>
  );
}
