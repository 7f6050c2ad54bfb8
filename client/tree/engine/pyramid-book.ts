/**
 * Which pieces have a deep-zoom pyramid (decision 048), asked once per picture (by its thumbnail's address, so a piece
 * given another picture is asked again). A pyramid is remembered for the page's life; "none" (or a failed question)
 * only for a while: the piece's pyramid may have been still being cut, and a zoom a little later asks again.
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

/** How long "no pyramid" is believed: the job cuts a new picture's within about ten seconds of its upload. */
export const NO_PYRAMID_BELIEVED_MS = 30_000;

export class PyramidBook {
  private readonly answers = new Map<string, PiecePyramid | null>();
  /** When each "none" was answered (by `now`). */
  private readonly noneSince = new Map<string, number>();
  private readonly asking = new Map<string, Promise<PiecePyramid | null>>();

  /** `fetchPyramid` absent: no piece has one (the tree zooms as it always did). */
  constructor(
    private readonly fetchPyramid: FetchPyramid | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The piece's pyramid when known to be ready; null when it has none or it is not known yet. */
  known(piece: PieceSquare): PiecePyramid | null {
    return this.answers.get(piece.thumb) ?? null;
  }

  /** Whether the piece's pyramid still has to be asked for (again, when "none" was answered a while ago). */
  unknown(piece: PieceSquare): boolean {
    if (this.fetchPyramid === undefined) return false;
    this.forgetOldNone(piece.thumb);
    return !this.answers.has(piece.thumb);
  }

  /** Asks for the piece's pyramid, once: every caller gets the one answer. */
  ask(piece: PieceSquare): Promise<PiecePyramid | null> {
    this.forgetOldNone(piece.thumb);
    const answered = this.answers.get(piece.thumb);
    if (answered !== undefined || !this.fetchPyramid) return Promise.resolve(answered ?? null);
    let pending = this.asking.get(piece.thumb);
    if (!pending) {
      pending = this.fetchPyramid(piece.token, piece.thumb)
        .catch(() => null)
        .then((pyramid) => {
          this.answers.set(piece.thumb, pyramid);
          if (pyramid === null) this.noneSince.set(piece.thumb, this.now());
          this.asking.delete(piece.thumb);
          return pyramid;
        });
      this.asking.set(piece.thumb, pending);
    }
    return pending;
  }

  private forgetOldNone(thumb: string): void {
    const since = this.noneSince.get(thumb);
    if (since === undefined || this.now() - since < NO_PYRAMID_BELIEVED_MS) return;
    this.noneSince.delete(thumb);
    this.answers.delete(thumb);
  }
}
