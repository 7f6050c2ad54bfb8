/**
 * GET /feed.xml: an Atom feed (RFC 4287) of the 50 pieces published last, each with its title, artist,
 * details link, thumbnail and times. Every page links to it with <link rel="alternate"> (server/http/index-html.ts).
 */
import { personName } from '#shared/people.ts';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db.ts';
import type { MediaUrlOf } from '../storage/index.ts';
import { newestPublished } from '../services/art/index.ts';
import { detailsLinkOf, thumbOf } from '../services/display/index.ts';
import { escapeMarkup } from './markup.ts';
import { profilePath } from '#shared/paths.ts';
import { titleOrUntitled } from '#shared/words.ts';

export const FEED_PATH = '/feed.xml';
export const FEED_TITLE = 'Gallery Tree: new pieces';
export const FEED_SIZE = 50;

const isoOf = (ms: number) => new Date(ms).toISOString();

export async function renderFeed(db: Queryable, urlOf: MediaUrlOf, siteUrl: string, now: number): Promise<string> {
  const entries = (await newestPublished(db, FEED_SIZE)).map((piece) => {
    const link = detailsLinkOf(siteUrl, piece.cellToken);
    const thumb = thumbOf(piece.mediaKey, urlOf);
    // The server's own /media/ path gets the site's address; a public address is one already.
    const thumbUrl = thumb && new URL(thumb, `${siteUrl}/`).href;
    const published = piece.publishedAt ?? piece.updatedAt;
    const updated = Math.max(published, piece.updatedAt);
    const title = titleOrUntitled(piece.title);
    const alt = piece.pictureDescription || title;
    const content = thumbUrl ? `<p><img src="${escapeMarkup(thumbUrl)}" alt="${escapeMarkup(alt)}"></p>` : '';
    return {
      updated,
      xml: [
        '  <entry>',
        `    <id>urn:gallery-tree:art:${piece.artToken}</id>`,
        `    <title type="text">${escapeMarkup(title)}</title>`,
        `    <link rel="alternate" type="text/html" href="${escapeMarkup(link)}"/>`,
        ...(thumbUrl ? [`    <link rel="enclosure" type="image/webp" href="${escapeMarkup(thumbUrl)}"/>`] : []),
        `    <author><name>${escapeMarkup(personName(piece))}</name><uri>${escapeMarkup(siteUrl + profilePath(piece.authorToken))}</uri></author>`,
        `    <published>${isoOf(published)}</published>`,
        `    <updated>${isoOf(updated)}</updated>`,
        ...(piece.description ? [`    <summary type="text">${escapeMarkup(piece.description)}</summary>`] : []),
        ...(content ? [`    <content type="html">${escapeMarkup(content)}</content>`] : []),
        '  </entry>',
      ].join('\n'),
    };
  });
  const feedUpdated = entries.reduce((latest, entry) => Math.max(latest, entry.updated), 0) || now;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeMarkup(siteUrl + FEED_PATH)}</id>`,
    `  <title type="text">${FEED_TITLE}</title>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeMarkup(siteUrl + FEED_PATH)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeMarkup(`${siteUrl}/observe`)}"/>`,
    `  <updated>${isoOf(feedUpdated)}</updated>`,
    ...entries.map((entry) => entry.xml),
    '</feed>',
    '',
  ].join('\n');
}

export function registerFeed(server: FastifyInstance): void {
  const { deps } = server;
  server.get(FEED_PATH, async (_req, reply) =>
    reply
      .header('cache-control', 'public, max-age=60')
      .type('application/atom+xml; charset=utf-8')
      .send(await renderFeed(deps.db, deps.media.urlOf, deps.config.siteUrl, deps.clock.now())),
  );
}
