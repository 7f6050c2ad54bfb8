/**
 * Open Graph tags for a shared art details link: /observe/cell/{cellToken}/details answers the client's
 * page with the piece's title, description and pictures in its head, so a shared link shows a preview: first the
 * social card the server draws (the piece among the squares around it, 1200 × 630, decision 046), then the main
 * image itself; and the link to the oEmbed answer, by which other sites find the embeddable view. Only published
 * pieces are described; anything else gets the plain page.
 */
import { personName } from '#shared/people.ts';
import { publishedPieceForSharing } from '../services/art/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { escapeMarkup } from './markup.ts';
import { cellPath } from '#shared/paths.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './social-card.ts';
import { cardPath, oembedPath } from './sharing-routes.ts';

export async function artOpenGraphTags(ctx: ServiceContext, cellToken: string): Promise<string> {
  const shared = await publishedPieceForSharing(ctx, cellToken);
  if (!shared) return '';
  const { piece, author, main } = shared;
  const site = ctx.config.siteUrl.replace(/\/$/, '');
  const title = `${piece.title}${piece.year ? ` (${piece.year})` : ''}${author ? ` by ${personName(author)}` : ''}`;
  const description = piece.description.length > 200 ? `${piece.description.slice(0, 197)}...` : piece.description;
  const pageUrl = site + cellPath(cellToken, 'details');
  const tags: [string, string][] = [
    ['og:type', 'article'],
    ['og:title', title],
    ['og:description', description],
    ['og:url', pageUrl],
    ['og:image', site + cardPath(cellToken)],
    ['og:image:type', 'image/png'],
    ['og:image:width', String(CARD_WIDTH)],
    ['og:image:height', String(CARD_HEIGHT)],
    ['og:image:alt', `${title}, among the squares around it on the tree`],
    ...(main
      ? ([
          // The server's own /media/ path gets the site's address; a public address is one already.
          ['og:image', new URL(main.image, `${site}/`).href],
          ['og:image:width', String(main.width)],
          ['og:image:height', String(main.height)],
          ['og:image:alt', main.description || piece.title],
        ] as [string, string][])
      : []),
  ];
  return (
    tags.map(([property, content]) => `<meta property="${property}" content="${escapeMarkup(content)}">`).join('') +
    `<meta name="twitter:card" content="summary_large_image">` +
    `<link rel="alternate" type="application/json+oembed" href="${escapeMarkup(site + oembedPath(pageUrl))}" title="${escapeMarkup(title)}">`
  );
}
