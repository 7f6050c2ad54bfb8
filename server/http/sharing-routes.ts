/**
 * Sharing a piece further (decision 046): its social card (/card/cell/{cellToken}.png), the oEmbed answer (/oembed)
 * and the embeddable view (/embed/cell/{cellToken}, with its two files under /embed/assets/). Each is the same for
 * everyone (no session is read, no cookie set) and describes a published piece only: anything else is not found.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { cellPath, profilePath } from '#shared/paths.ts';
import { sharedPieceWithSurroundings, type SharedPiece } from '../services/art/index.ts';
import { AppError } from '../errors.ts';
import type { AppDeps } from '../trpc.ts';
import {
  EMBED_ASSETS_PATH,
  EMBED_HEIGHT,
  EMBED_PATH,
  EMBED_WIDTH,
  readEmbedAssets,
  renderEmbed,
  renderEmbedNotFound,
} from './embed-page.ts';
import { escapeMarkup } from './markup.ts';
import { CARD_HEIGHT, CARD_WIDTH, SocialCards } from './social-card.ts';

export const CARD_PATH = '/card/cell/';
export const OEMBED_PATH = '/oembed';
export const PROVIDER_NAME = 'Gallery Tree';

/** The card's address for a square's piece. */
export const cardPath = (cellToken: string) => `${CARD_PATH}${encodeURIComponent(cellToken)}.png`;
export const embedPath = (cellToken: string) => `${EMBED_PATH}${encodeURIComponent(cellToken)}`;
export const oembedPath = (pageUrl: string) => `${OEMBED_PATH}?url=${encodeURIComponent(pageUrl)}&format=json`;

/**
 * A card is kept by browsers and caches for ten minutes, then asked again with its ETag (a fingerprint of everything
 * on it), so a piece taken down stops being shown from a cache within that.
 */
const CARD_CACHE = 'public, max-age=600';
/** The oEmbed answer: a few minutes. */
const OEMBED_CACHE = 'public, max-age=300';
/** The view: a minute (once open it follows the tree itself, from the version it was drawn at). */
const EMBED_CACHE = 'public, max-age=60';
/** The view's files carry their hash in their address. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
const NOT_FOUND_CACHE = 'public, max-age=60';

const SAME_FOR_EVERYONE = { sameForEveryone: true };

/** The square token an address of this site names, for oEmbed: a details page, the tree at a square, the embed. */
export function cellTokenOfSiteUrl(url: URL): string | null {
  if (url.pathname === '/observe') return url.searchParams.get('cell');
  const found =
    /^\/observe\/cell\/([^/]+)(?:\/details)?\/?$/.exec(url.pathname) ??
    /^\/embed\/cell\/([^/]+)\/?$/.exec(url.pathname);
  if (!found) return null;
  try {
    return decodeURIComponent(found[1]!);
  } catch {
    // A malformed escape names no square.
    return null;
  }
}

type OembedAnswer = { status: number; body: Record<string, unknown> };

const refusal = (status: number, message: string): OembedAnswer => ({ status, body: { error: message } });

/** A positive whole number of pixels from maxwidth or maxheight, undefined when not given, null when malformed. */
function readMax(raw: unknown): number | null | undefined {
  if (raw === undefined || raw === '') return undefined;
  return typeof raw === 'string' && /^[1-9]\d{0,4}$/.test(raw) ? Number(raw) : null;
}

/** The oEmbed answer (https://oembed.com, type "rich"), or a refusal with its HTTP status. */
export async function oembedAnswer(deps: AppDeps, query: Record<string, unknown>): Promise<OembedAnswer> {
  const format = query.format ?? 'json';
  if (format !== 'json') return refusal(501, 'Only format=json is answered.');
  const maxWidth = readMax(query.maxwidth);
  const maxHeight = readMax(query.maxheight);
  if (maxWidth === null || maxHeight === null) return refusal(400, 'maxwidth and maxheight are whole numbers.');
  const site = deps.config.siteUrl.replace(/\/$/, '');
  let asked: URL;
  try {
    asked = new URL(typeof query.url === 'string' ? query.url : '');
  } catch {
    return refusal(400, 'url must be the address of a piece on this site.');
  }
  if (asked.origin !== new URL(site).origin) return refusal(400, 'url must be the address of a piece on this site.');
  const token = cellTokenOfSiteUrl(asked);
  const shared = token ? await sharedPieceWithSurroundings(deps, token) : null;
  if (!shared) return refusal(404, 'No piece on show at that address.');

  const width = Math.min(EMBED_WIDTH, maxWidth ?? EMBED_WIDTH);
  const height = Math.min(EMBED_HEIGHT, maxHeight ?? EMBED_HEIGHT);
  const title = shared.title;
  const frameTitle = `${title}${shared.artist ? ` by ${shared.artist.name}` : ''}, on ${PROVIDER_NAME}`;
  const html =
    `<iframe src="${escapeMarkup(site + embedPath(shared.cellToken))}" width="${width}" height="${height}"` +
    ` sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" loading="lazy"` +
    ` title="${escapeMarkup(frameTitle)}" style="border:0;max-width:100%"></iframe>`;
  // The thumbnail must fit maxwidth and maxheight too (the specification's rule): the card is one size.
  const cardFits = (maxWidth ?? CARD_WIDTH) >= CARD_WIDTH && (maxHeight ?? CARD_HEIGHT) >= CARD_HEIGHT;
  return {
    status: 200,
    body: {
      version: '1.0',
      type: 'rich',
      title,
      ...(shared.artist
        ? { author_name: shared.artist.name, author_url: site + profilePath(shared.artist.token) }
        : {}),
      provider_name: PROVIDER_NAME,
      provider_url: `${site}/`,
      cache_age: 300,
      html,
      width,
      height,
      ...(cardFits
        ? {
            thumbnail_url: site + cardPath(shared.cellToken),
            thumbnail_width: CARD_WIDTH,
            thumbnail_height: CARD_HEIGHT,
          }
        : {}),
      web_page: site + cellPath(shared.cellToken, 'details'),
    },
  };
}

/** The social card's answer: 304 for the ETag it has, else the PNG. */
async function sendCard(
  cards: SocialCards,
  shared: SharedPiece,
  ifNoneMatch: string | undefined,
  reply: FastifyReply,
): Promise<FastifyReply> {
  let card;
  try {
    card = await cards.cardOf(shared);
  } catch (error) {
    if (!(error instanceof AppError) || error.retryAfter === undefined) throw error;
    // Too many new cards asked at once: come back shortly (never kept by a cache).
    return reply.code(503).header('cache-control', 'no-store').header('retry-after', String(error.retryAfter)).send();
  }
  const { png, fingerprint } = card;
  const etag = `"card-${fingerprint}"`;
  reply.header('cache-control', CARD_CACHE).header('etag', etag);
  if (ifNoneMatch?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send();
  return reply.type('image/png').send(png);
}

export function registerSharing(server: FastifyInstance, deps: AppDeps): void {
  const cards = new SocialCards(deps.media);
  const assets = readEmbedAssets();
  const notFoundPage = Buffer.from(renderEmbedNotFound(assets));

  server.get<{ Params: { file: string } }>(`${CARD_PATH}:file`, { config: SAME_FOR_EVERYONE }, async (req, reply) => {
    const token = /^(.+)\.png$/.exec(req.params.file)?.[1];
    const shared = token ? await sharedPieceWithSurroundings(deps, token) : null;
    if (!shared) return reply.code(404).header('cache-control', NOT_FOUND_CACHE).send();
    return sendCard(cards, shared, req.headers['if-none-match'], reply);
  });

  server.get<{ Querystring: Record<string, unknown> }>(
    OEMBED_PATH,
    { config: SAME_FOR_EVERYONE },
    async (req, reply) => {
      const answer = await oembedAnswer(deps, req.query);
      return reply
        .code(answer.status)
        .header('cache-control', answer.status === 200 ? OEMBED_CACHE : NOT_FOUND_CACHE)
        .header('access-control-allow-origin', '*')
        .type('application/json; charset=utf-8')
        .send(answer.body);
    },
  );

  server.get<{ Params: { cellToken: string } }>(
    `${EMBED_PATH}:cellToken`,
    { config: SAME_FOR_EVERYONE },
    async (req, reply) => {
      const shared = await sharedPieceWithSurroundings(deps, req.params.cellToken);
      // The view fetches itself again from inside its frame, whose origin is no one's: CORS lets it read the answer.
      reply.header('access-control-allow-origin', '*').type('text/html; charset=utf-8');
      if (!shared) return reply.code(404).header('cache-control', NOT_FOUND_CACHE).send(notFoundPage);
      return reply.header('cache-control', EMBED_CACHE).send(renderEmbed(assets, shared, deps.media.urlOf));
    },
  );

  // Nothing else under /embed/ or /card/: not the client's page (which would then carry the embed's policy and so
  // be framed by any site), only not found.
  server.get('/embed/*', { config: SAME_FOR_EVERYONE }, async (_req, reply) =>
    reply.code(404).header('cache-control', NOT_FOUND_CACHE).type('text/html; charset=utf-8').send(notFoundPage),
  );
  server.get('/card/*', { config: SAME_FOR_EVERYONE }, async (_req, reply) =>
    reply.code(404).header('cache-control', NOT_FOUND_CACHE).send(),
  );

  server.get<{ Params: { name: string } }>(
    `${EMBED_ASSETS_PATH}:name`,
    { config: SAME_FOR_EVERYONE },
    async (req, reply) => {
      const asset = assets.get(req.params.name);
      if (!asset) return reply.code(404).header('cache-control', NOT_FOUND_CACHE).send();
      return reply.header('cache-control', ASSET_CACHE).type(asset.type).send(asset.bytes);
    },
  );
}
