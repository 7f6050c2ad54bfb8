/**
 * The social card of a published piece (decision 046): a 1200 × 630 PNG drawn by the server, the picture a shared link
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
import { PALETTE } from '#shared/tree/cell-look.ts';
import { CellStatus } from '#shared/domain.ts';
import { drawSurroundings, SURROUNDINGS_RADIUS, type SharedPiece } from '../services/art/index.ts';
import { mediaNameOf } from '../services/display/index.ts';
import { SvgPen } from '../services/tree/index.ts';
import type { MediaStorage } from '../storage/index.ts';
import { WorkQueue } from '../work-queue.ts';
import { escapeMarkup } from './markup.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Cards kept in memory, in bytes of PNG. */
const KEPT_BYTES = 32 * 1024 * 1024;
/**
 * Cards drawn at once, and waiting: a card keeps a core busy for about 100 ms (26 pictures decoded and resized), so a
 * crawl of many new cards waits its turn, and past the line it is told to come back (busy, 503).
 */
const DRAWN_AT_ONCE = 1;
const DRAWS_WAITING = 16;

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

/** The card's drawing under the pictures: background, the squares and branch slots as the tree draws them. */
function baseSvg(shared: SharedPiece): string {
  const pen = new SvgPen();
  drawSurroundings(pen, shared);
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

/**
 * A stored picture resized to cover a square, as raw pixels for the composite (no encoding between), or null when the
 * storage has no such file or it cannot be read.
 */
async function squarePicture(media: MediaStorage, name: string, size: number): Promise<sharp.OverlayOptions | null> {
  const bytes = await media.get(name).catch(() => null);
  if (!bytes) return null;
  const { data, info } = await sharp(bytes)
    .resize(size, size, { fit: 'cover' })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => ({ data: null, info: null }));
  return data && { input: data, raw: { width: info.width, height: info.height, channels: info.channels } };
}

/** Draws the card of a published piece (sharedPieceWithSurroundings's answer) as PNG bytes. */
export async function drawSocialCard(media: MediaStorage, shared: SharedPiece): Promise<Buffer> {
  const layers: sharp.OverlayOptions[] = [];
  const squares = await Promise.all(
    shared.around
      .filter((square) => square.status === CellStatus.Published && square.mediaKey)
      .map(async (square) => ({
        at: squareAt(square.dRow, square.dColumn),
        picture: await squarePicture(media, mediaNameOf(square.mediaKey!, 'thumb'), SQUARE),
      })),
  );
  for (const { at, picture } of squares) if (picture) layers.push({ ...picture, ...at });

  let pictureBottom = MARGIN;
  const large = shared.main && (await media.get(mediaNameOf(shared.main.mediaKey, 'large')).catch(() => null));
  if (large) {
    const { data, info } = await sharp(large)
      .resize(RIGHT_WIDTH, PICTURE_HEIGHT, { fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    layers.push({ input: data, raw, left: RIGHT_X, top: MARGIN });
    pictureBottom = MARGIN + info.height;
  }
  layers.push({ input: Buffer.from(overlaySvg(shared, pictureBottom)), left: 0, top: 0 });
  return (
    sharp(Buffer.from(baseSvg(shared)))
      .composite(layers)
      // Full colour at zlib's middle level: the demo tree's cards are 250 to 400 kB, each drawn in about 100 ms (the
      // encoding 20 ms of it); a 256-colour palette halved the bytes but took 300 ms more to choose its colours.
      .png({ compressionLevel: 6 })
      .toBuffer()
  );
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
  private readonly queue: WorkQueue;

  /** `waiting`: the cards that may wait for their turn (a test's line is shorter). */
  constructor(
    private readonly media: MediaStorage,
    waiting = DRAWS_WAITING,
  ) {
    this.queue = new WorkQueue(DRAWN_AT_ONCE, waiting, 5);
  }

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
      pending = this.queue
        .run(() => drawSocialCard(this.media, shared))
        .finally(() => this.drawing.delete(fingerprint));
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
