/**
 * Which pieces have a deep-zoom pyramid (decision 048), asked once per picture (by its thumbnail's address, so a piece
 * given another picture is asked again) and remembered for the page's life, a failed question as "none".
 */
import type { PiecePyramid } from '#shared/deep-zoom.ts';

/** Reads a piece's pyramid: null when it has none ready. */
export type FetchPyramid = (cellToken: string, thumb: string) => Promise<PiecePyramid | null>;

/** A published piece on the tree whose pyramid may be asked for. */
export interface PieceSquare {
  row: number;
  column: number;
  token: string;
  thumb: string;
}

export class PyramidBook {
  private readonly answers = new Map<string, PiecePyramid | null>();
  private readonly asking = new Map<string, Promise<PiecePyramid | null>>();

  /** `fetchPyramid` absent: no piece has one (the tree zooms as it always did). */
  constructor(private readonly fetchPyramid: FetchPyramid | undefined) {}

  /** The piece's pyramid when known to be ready; null when it has none or it is not known yet. */
  known(piece: PieceSquare): PiecePyramid | null {
    return this.answers.get(piece.thumb) ?? null;
  }

  /** Whether the piece's pyramid still has to be asked for. */
  unknown(piece: PieceSquare): boolean {
    return this.fetchPyramid !== undefined && !this.answers.has(piece.thumb);
  }

  /** Asks for the piece's pyramid, once: every caller gets the one answer. */
  ask(piece: PieceSquare): Promise<PiecePyramid | null> {
    const answered = this.answers.get(piece.thumb);
    if (answered !== undefined || !this.fetchPyramid) return Promise.resolve(answered ?? null);
    let pending = this.asking.get(piece.thumb);
    if (!pending) {
      pending = this.fetchPyramid(piece.token, piece.thumb)
        .catch(() => null)
        .then((pyramid) => {
          this.answers.set(piece.thumb, pyramid);
          this.asking.delete(piece.thumb);
          return pyramid;
        });
      this.asking.set(piece.thumb, pending);
    }
    return pending;
  }
}
