/**
 * The social card of a published piece (decision 045): a 1200 × 630 PNG drawn by the server, the picture a shared link
 * previews with (`og:image`) and the oEmbed answer's thumbnail. Left, the 5 × 5 squares around the piece as the tree
 * draws them (its own looks through an SVG pen, published neighbours' thumbnails over their colour), the piece in the
 * middle, ringed; right, the piece's picture, its title and its artist. Pictures are read through the media storage.
 *
 * Cards are kept in memory by a fingerprint of everything drawn: a card is drawn again only when the piece, its
 * picture or a square around it changes, and an unchanged card answers with the same ETag.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { drawCell, PALETTE } from '#shared/tree/cell-look.ts';
import { CellStatus } from '#shared/domain.ts';
import { SURROUNDINGS_RADIUS, type SharedPiece } from '../services/art/index.ts';
import { mediaNameOf } from '../services/display/index.ts';
import { SvgPen } from '../services/tree/index.ts';
import type { MediaStorage } from '../storage/index.ts';
import { escapeMarkup } from './markup.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Cards kept in memory, in bytes of PNG. */
const KEPT_BYTES = 24 * 1024 * 1024;

const MARGIN = 30;
const SIDE = 2 * SURROUNDINGS_RADIUS + 1;
/** The neighbourhood's square on the card, and the tree's world pixels per card pixel there. */
const GRID = CARD_HEIGHT - 2 * MARGIN;
const SCALE = GRID / (SIDE * CELL_PITCH - (CELL_PITCH - CELL_SIZE));
const SQUARE = Math.round(CELL_SIZE * SCALE);
/** The right-hand column: the piece's picture, then its words. */
const RIGHT_X = MARGIN + GRID + 40;
const RIGHT_WIDTH = CARD_WIDTH - RIGHT_X - MARGIN;
const PICTURE_HEIGHT = 360;
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

const hex = (color: number) => `#${color.toString(16).padStart(6, '0')}`;

/** Where a square of the neighbourhood lands on the card, in card pixels (its top-left corner). */
function squareAt(dRow: number, dColumn: number): { left: number; top: number } {
  return {
    left: Math.round(MARGIN + (dColumn + SURROUNDINGS_RADIUS) * CELL_PITCH * SCALE),
    top: Math.round(MARGIN + (dRow + SURROUNDINGS_RADIUS) * CELL_PITCH * SCALE),
  };
}

/**
 * Up to `lines` lines of at most `perLine` characters, broken between words (a word longer than a line is cut), the
 * last one ending in an ellipsis when the text goes on. The card has no text measure: the widths are the font's
 * average, which a line of wide capitals may pass by a little.
 */
export function wrapText(text: string, perLine: number, lines: number): string[] {
  const out: string[] = [];
  let rest = text.trim().replace(/\s+/g, ' ');
  while (rest && out.length < lines) {
    if (rest.length <= perLine) {
      out.push(rest);
      rest = '';
      break;
    }
    const space = rest.lastIndexOf(' ', perLine);
    const cut = space > perLine / 2 ? space : perLine;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out[out.length - 1] = `${out[out.length - 1]!.slice(0, perLine - 1).trimEnd()}…`;
  return out;
}

/** The card's drawing under the pictures: background, the squares as the tree draws them. */
function baseSvg(shared: SharedPiece): string {
  const pen = new SvgPen();
  for (const square of shared.around) {
    const x = (square.dColumn + SURROUNDINGS_RADIUS) * CELL_PITCH;
    const y = (square.dRow + SURROUNDINGS_RADIUS) * CELL_PITCH;
    drawCell(pen, x, y, square.status, square.color ?? -1);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">` +
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${hex(PALETTE.background)}"/>` +
    `<g transform="translate(${MARGIN} ${MARGIN}) scale(${SCALE.toFixed(5)})">${pen.markup()}</g>` +
    `</svg>`
  );
}

/** The card's drawing over the pictures: the piece's ring, its title, its artist and the site's name. */
function overlaySvg(shared: SharedPiece, pictureBottom: number): string {
  const centre = squareAt(0, 0);
  const ring = 6;
  const titleSize = 40;
  const titleLines = wrapText(shared.title, Math.floor(RIGHT_WIDTH / (titleSize * 0.62)), 2);
  let y = pictureBottom + 30 + titleSize;
  const text: string[] = [];
  for (const line of titleLines) {
    text.push(
      `<text x="${RIGHT_X}" y="${y}" font-family="${FONT}" font-size="${titleSize}" font-weight="bold" fill="${hex(PALETTE.ink)}">${escapeMarkup(line)}</text>`,
    );
    y += Math.round(titleSize * 1.2);
  }
  const by = shared.artist ? `by ${shared.artist.name}` : '';
  const byLine = wrapText(by + (shared.year ? `, ${shared.year}` : ''), Math.floor(RIGHT_WIDTH / (26 * 0.58)), 1)[0];
  if (byLine)
    text.push(
      `<text x="${RIGHT_X}" y="${y + 4}" font-family="${FONT}" font-size="26" fill="${hex(PALETTE.ink)}" fill-opacity="0.8">${escapeMarkup(byLine)}</text>`,
    );
  text.push(
    `<text x="${CARD_WIDTH - MARGIN}" y="${CARD_HEIGHT - MARGIN}" text-anchor="end" font-family="${FONT}" font-size="22" font-weight="bold" fill="${hex(PALETTE.accent)}">Gallery Tree</text>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">` +
    `<rect x="${centre.left - ring / 2}" y="${centre.top - ring / 2}" width="${SQUARE + ring}" height="${SQUARE + ring}" fill="none" stroke="${hex(PALETTE.accent)}" stroke-width="${ring}"/>` +
    text.join('') +
    `</svg>`
  );
}

/** A stored picture resized to cover a square, or null when the storage has no such file (or cannot read it). */
async function squarePicture(media: MediaStorage, name: string, size: number): Promise<Buffer | null> {
  const bytes = await media.get(name).catch(() => null);
  if (!bytes) return null;
  return sharp(bytes).resize(size, size, { fit: 'cover' }).png().toBuffer();
}

/** Draws the card of a published piece (sharedPieceWithSurroundings's answer) as PNG bytes. */
export async function drawSocialCard(media: MediaStorage, shared: SharedPiece): Promise<Buffer> {
  const layers: sharp.OverlayOptions[] = [];
  const squares = await Promise.all(
    shared.around
      .filter((square) => square.status === CellStatus.Published && square.mediaKey)
      .map(async (square) => ({
        at: squareAt(square.dRow, square.dColumn),
        bytes: await squarePicture(media, mediaNameOf(square.mediaKey!, 'thumb'), SQUARE),
      })),
  );
  for (const { at, bytes } of squares) if (bytes) layers.push({ input: bytes, ...at });

  let pictureBottom = MARGIN;
  const large = shared.main && (await media.get(mediaNameOf(shared.main.mediaKey, 'large')).catch(() => null));
  if (large) {
    const { data, info } = await sharp(large)
      .resize(RIGHT_WIDTH, PICTURE_HEIGHT, { fit: 'inside' })
      .png()
      .toBuffer({ resolveWithObject: true });
    layers.push({ input: data, left: RIGHT_X, top: MARGIN });
    pictureBottom = MARGIN + info.height;
  }
  layers.push({ input: Buffer.from(overlaySvg(shared, pictureBottom)), left: 0, top: 0 });
  return sharp(Buffer.from(baseSvg(shared)))
    .composite(layers)
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toBuffer();
}

/**
 * What a card shows, as one string: the same string, the same card. The tree's version is left out: it moves with
 * every change anywhere on the tree, and the card shows only the squares around the piece.
 */
export function cardFingerprint({ treeVersion: _version, ...shown }: SharedPiece): string {
  return createHash('sha256').update(JSON.stringify(shown)).digest('hex').slice(0, 32);
}

/** The cards drawn lately, by fingerprint, the least recently asked dropped past KEPT_BYTES. */
export class SocialCards {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;
  /** Cards being drawn, so that a burst of asks for one new card draws it once. */
  private readonly drawing = new Map<string, Promise<Buffer>>();

  constructor(private readonly media: MediaStorage) {}

  async cardOf(shared: SharedPiece): Promise<{ png: Buffer; fingerprint: string }> {
    const fingerprint = cardFingerprint(shared);
    const found = this.kept.get(fingerprint);
    if (found) {
      this.kept.delete(fingerprint);
      this.kept.set(fingerprint, found);
      return { png: found, fingerprint };
    }
    let pending = this.drawing.get(fingerprint);
    if (!pending) {
      pending = drawSocialCard(this.media, shared).finally(() => this.drawing.delete(fingerprint));
      this.drawing.set(fingerprint, pending);
    }
    const png = await pending;
    if (!this.kept.has(fingerprint)) {
      this.kept.set(fingerprint, png);
      this.bytes += png.length;
      for (const [key, old] of this.kept) {
        if (this.bytes <= KEPT_BYTES) break;
        this.kept.delete(key);
        this.bytes -= old.length;
      }
    }
    return { png, fingerprint };
  }
}
