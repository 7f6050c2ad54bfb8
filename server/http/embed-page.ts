/**
 * The embeddable view of a published piece, /embed/cell/{cellToken} (decision 046): a small page written here, no app
 * bundle: the squares around the piece as the tree draws them (inline SVG, the pen of the first sketch), the piece's
 * picture, its title and artist, and links back that open the site in a new tab. Its script and style sheet are
 * files of their own (server/http/embed/), so the view's policy allows no inline code; the script follows the tree's
 * event stream and fetches the view again when a square around the piece changes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { CellStatus } from '#shared/domain.ts';
import { cellPath } from '#shared/paths.ts';
import { drawSurroundings, SURROUNDINGS_RADIUS, type SharedPiece } from '../services/art/index.ts';
import { mediaNameOf, pictureVariants } from '../services/display/index.ts';
import { pictureSrcsets } from '#shared/picture-srcsets.ts';
import { SvgPen } from '../services/tree/index.ts';
import type { MediaUrlOf } from '../storage/index.ts';
import { escapeMarkup } from './markup.ts';

export const EMBED_PATH = '/embed/cell/';
export const EMBED_ASSETS_PATH = '/embed/assets/';

/** The view's size when nothing else is asked (the oEmbed answer's width and height). */
export const EMBED_WIDTH = 560;
export const EMBED_HEIGHT = 320;

/** The view's own files, read once, each with the hash its address carries (so it may be kept for good). */
export interface EmbedAsset {
  bytes: Buffer;
  type: string;
  version: string;
}

const ASSET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'embed');
const ASSET_TYPES: Record<string, string> = {
  'embed.js': 'text/javascript; charset=utf-8',
  'embed.css': 'text/css; charset=utf-8',
};

export function readEmbedAssets(): Map<string, EmbedAsset> {
  const assets = new Map<string, EmbedAsset>();
  for (const [name, type] of Object.entries(ASSET_TYPES)) {
    const bytes = fs.readFileSync(path.join(ASSET_DIR, name));
    assets.set(name, { bytes, type, version: createHash('sha256').update(bytes).digest('hex').slice(0, 12) });
  }
  return assets;
}

const assetUrl = (assets: Map<string, EmbedAsset>, name: string) =>
  `${EMBED_ASSETS_PATH}${name}?v=${assets.get(name)!.version}`;

const SIDE = 2 * SURROUNDINGS_RADIUS + 1;
const VIEW = SIDE * CELL_PITCH - (CELL_PITCH - CELL_SIZE);

/** A link that leaves the frame: a new tab, which learns nothing of the frame (allow-popups in the sandbox). */
const out = (href: string, inner: string, label = '') =>
  `<a href="${escapeMarkup(href)}" target="_blank" rel="noopener"${label ? ` aria-label="${escapeMarkup(label)}"` : ''}>${inner}</a>`;

/** The squares around the piece: the tree's looks, published neighbours' thumbnails, each piece a link to its page. */
function surroundingsSvg(shared: SharedPiece, urlOf: MediaUrlOf): string {
  const pen = new SvgPen();
  drawSurroundings(pen, shared);
  const pieces = shared.around
    .filter((square) => square.status === CellStatus.Published && square.title)
    .map((square) => {
      const x = (square.dColumn + SURROUNDINGS_RADIUS) * CELL_PITCH;
      const y = (square.dRow + SURROUNDINGS_RADIUS) * CELL_PITCH;
      const label = square.artist ? `${square.title} by ${square.artist}` : square.title;
      const picture = square.mediaKey
        ? `<image href="${escapeMarkup(urlOf(mediaNameOf(square.mediaKey, 'thumb')))}" x="${x}" y="${y}" width="${CELL_SIZE}" height="${CELL_SIZE}" preserveAspectRatio="xMidYMid slice"/>`
        : `<rect x="${x}" y="${y}" width="${CELL_SIZE}" height="${CELL_SIZE}" fill-opacity="0"/>`;
      return out(cellPath(square.token, 'details'), `<title>${escapeMarkup(label)}</title>${picture}`, label);
    });
  const c = SURROUNDINGS_RADIUS * CELL_PITCH;
  const ring = `<rect class="embed-ring" x="${c - 4}" y="${c - 4}" width="${CELL_SIZE + 8}" height="${CELL_SIZE + 8}" fill="none" stroke="#${PALETTE.accent.toString(16).padStart(6, '0')}" stroke-width="6"/>`;
  return (
    `<svg class="embed-tree" xmlns="http://www.w3.org/2000/svg" viewBox="-6 -6 ${VIEW + 12} ${VIEW + 12}" role="group" aria-label="The squares around it on the tree">` +
    pen.markup() +
    pieces.join('') +
    ring +
    `</svg>`
  );
}

function page(assets: Map<string, EmbedAsset>, title: string, main: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeMarkup(title)}</title>` +
    `<link rel="stylesheet" href="${assetUrl(assets, 'embed.css')}">` +
    `<script src="${assetUrl(assets, 'embed.js')}" defer></script>` +
    `</head><body>${main}</body></html>`
  );
}

/**
 * The piece's main picture at the width the view draws it (decision 047): AVIF and WebP srcsets, the large size as
 * fallback. `sizes` is at least the width drawn (the piece's column is narrower than the frame), so the picture keeps
 * the size it had with the large size alone.
 */
function pictureMarkup(main: NonNullable<SharedPiece['main']>, title: string, urlOf: MediaUrlOf): string {
  const image = urlOf(mediaNameOf(main.mediaKey, 'large'));
  const srcsets = pictureSrcsets({
    image,
    width: main.width,
    variants: pictureVariants(main.mediaKey, main.width, main.sizes, urlOf),
  });
  const ratio = Number((main.width / main.height).toFixed(4));
  const sizes = `min(100vw, ${ratio} * 45vh, ${main.width}px)`;
  const avif = srcsets.avif ? `<source type="image/avif" srcset="${escapeMarkup(srcsets.avif)}" sizes="${sizes}">` : '';
  return (
    `<picture>${avif}<img class="embed-picture" src="${escapeMarkup(image)}" srcset="${escapeMarkup(srcsets.webp)}"` +
    ` sizes="${sizes}" width="${main.width}" height="${main.height}"` +
    ` alt="${escapeMarkup(main.description || title)}"></picture>`
  );
}

/** The view of a published piece. */
export function renderEmbed(assets: Map<string, EmbedAsset>, shared: SharedPiece, urlOf: MediaUrlOf): string {
  const details = cellPath(shared.cellToken, 'details');
  const byline = [shared.artist ? `by ${shared.artist.name}` : '', shared.year ? String(shared.year) : '']
    .filter(Boolean)
    .join(', ');
  const picture = shared.main ? out(details, pictureMarkup(shared.main, shared.title, urlOf)) : '';
  const data =
    `data-tree="${escapeMarkup(shared.treeToken)}" data-version="${shared.treeVersion}"` +
    ` data-row="${shared.row}" data-column="${shared.column}"` +
    ` data-radius="${SURROUNDINGS_RADIUS}"`;
  return page(
    assets,
    `${shared.title}${shared.artist ? ` by ${shared.artist.name}` : ''} · Gallery Tree`,
    `<main class="embed" ${data}>` +
      surroundingsSvg(shared, urlOf) +
      `<div class="embed-piece">${picture}` +
      `<h1 class="embed-title">${out(details, escapeMarkup(shared.title))}</h1>` +
      (byline ? `<p class="embed-artist">${escapeMarkup(byline)}</p>` : '') +
      `<p class="embed-site">${out(details, 'See it on Gallery Tree ↗')}</p>` +
      `</div></main>`,
  );
}

/** What an unknown token, or a piece no longer on show, gets: a small page that says so. */
export function renderEmbedNotFound(assets: Map<string, EmbedAsset>): string {
  return page(
    assets,
    'Not on show · Gallery Tree',
    `<main class="embed embed-gone"><p>This piece is not on show at Gallery Tree.</p>` +
      `<p class="embed-site">${out('/observe', 'Visit the tree ↗')}</p></main>`,
  );
}
