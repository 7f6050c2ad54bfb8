/**
 * Sharing a piece further (decision 046): the social card, the oEmbed answer and its discovery link, the embeddable
 * view's page and headers, and that none of them shows a piece that is not published.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { acceptRemoval } from '#server/services/admin/index.ts';
import { requestRemoval, sharedPieceWithSurroundings } from '#server/services/art/index.ts';
import { publishArt } from '#server/services/review/index.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { SocialCards, wrapText } from '#server/http/social-card.ts';
import type { MediaStorage } from '#server/storage/index.ts';
import { fileFixture } from '#tests/helpers/file-fixture.ts';
import { SEED_ROW } from '#tests/helpers/server/art-app.ts';
import { submitPieceAt } from '#tests/helpers/server/review-fixtures.ts';
import { publishedPieceAt } from '#tests/helpers/art-fixtures.ts';
import { createTestApp } from '#tests/helpers/server/test-app.ts';

const SITE = 'http://localhost:3000';
const TITLE = 'Blue <Hour> & "Dawn"';

const app = fileFixture(
  async () => {
    const t = await createTestApp();
    const treeId = (await createTree(t.deps.db, t.clock.now(), 'Sharing')).id;
    const admin = await t.addUser(Role.Admin);
    const [author, neighbour, waiting] = [await t.addUser(), await t.addUser(), await t.addUser()];
    const piece = await submitPieceAt(t, treeId, SEED_ROW, 2, author.user, TITLE);
    await publishArt(t.deps, admin.user, piece.artToken);
    const next = await submitPieceAt(t, treeId, SEED_ROW, 3, neighbour.user, 'Next door');
    await publishArt(t.deps, admin.user, next.artToken);
    // Submitted, under review: nothing of it may show anywhere.
    const review = await submitPieceAt(t, treeId, SEED_ROW, 1, waiting.user, 'Under review');
    const reviewKey = (await sharedPieceWithSurroundings(t.deps, piece.cellToken))!.around.find(
      (square) => square.token === review.cellToken,
    );
    return { t, treeId, admin, author, neighbour, piece, next, review, reviewKey };
  },
  ({ t }) => t.cleanup(),
  60_000,
);

const get = (url: string, headers: Record<string, string> = {}) => app().t.server.inject({ url, headers });
const oembed = (params: Record<string, string>) => get(`/oembed?${new URLSearchParams(params).toString()}`);

describe('the social card', () => {
  it('is a 1200 × 630 PNG at a stable address, cached with an ETag that answers 304', async () => {
    const res = await get(`/card/cell/${app().piece.cellToken}.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=600');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['set-cookie']).toBeUndefined();
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    const etag = String(res.headers.etag);
    const again = await get(`/card/cell/${app().piece.cellToken}.png`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  // Takes the neighbour down: the tests below see it removed.
  it('is drawn again, under another ETag, when a square around the piece changes', async () => {
    const before = String((await get(`/card/cell/${app().piece.cellToken}.png`)).headers.etag);
    const removal = await requestRemoval(app().t.deps, app().neighbour.user, app().next.cellToken, 'Gone.');
    await acceptRemoval(app().t.deps, app().admin.user, removal.token);
    const after = await get(`/card/cell/${app().piece.cellToken}.png`);
    expect(after.statusCode).toBe(200);
    expect(String(after.headers.etag)).not.toBe(before);
  });

  it('is not found for an unknown token, a piece under review and a removed one', async () => {
    for (const url of [
      '/card/cell/not-a-token.png',
      `/card/cell/${'a'.repeat(32)}.png`,
      `/card/cell/${app().review.cellToken}.png`,
      `/card/cell/${app().next.cellToken}.png`,
      `/card/cell/${app().piece.cellToken}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.rawPayload.length, url).toBe(0);
    }
  });

  it('shows the branch slots around a piece on the trunk’s edge, and draws a card whose pictures are missing', async () => {
    const { t, author } = app();
    // Written directly, its picture never stored: the card falls back to the piece's colour.
    const edge = await publishedPieceAt(t.deps.db, app().treeId, 20, 0, author.user.id, 'c'.repeat(32));
    const shared = (await sharedPieceWithSurroundings(t.deps, edge.cellToken))!;
    // Left of the trunk, the free positions its piece alone touches.
    expect(shared.slots).toEqual([
      { dRow: -1, dColumn: -1 },
      { dRow: 0, dColumn: -1 },
      { dRow: 1, dColumn: -1 },
    ]);
    const card = await get(`/card/cell/${edge.cellToken}.png`);
    expect(card.statusCode).toBe(200);
    expect(await sharp(card.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 });
    expect((await get(`/embed/cell/${edge.cellToken}`)).body).toContain('stroke-opacity="0.9"');
  });

  it('shows a square under review by its status only: no colour, picture or title of its piece', () => {
    expect(app().reviewKey).toMatchObject({ color: null, mediaKey: null, title: '', artist: '' });
  });

  it('draws one card at a time, lets a few wait, and refuses more as busy rather than pile them up', async () => {
    // A storage that answers only when told: the first card holds the one place while the others line up.
    const held: (() => void)[] = [];
    const media = {
      get: () => new Promise<null>((resolve) => held.push(() => resolve(null))),
    } as unknown as MediaStorage;
    const shared = (await sharedPieceWithSurroundings(app().t.deps, app().piece.cellToken))!;
    const cards = new SocialCards(media, 2);
    const asked = Array.from({ length: 4 }, (_, i) => cards.cardOf({ ...shared, title: `Card ${i}` }));
    const outcomes = asked.map((card) =>
      card.then(
        () => 'drawn',
        (error: { retryAfter?: number }) => error.retryAfter,
      ),
    );
    // The 4th is refused at once, with a time to come back.
    expect(await Promise.race([outcomes[3], new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))])).toBe(
      5,
    );
    // The others are drawn in turn, each asking the storage as its place comes.
    const release = setInterval(() => held.splice(0).forEach((go) => go()), 5);
    try {
      expect((await Promise.all(outcomes.slice(0, 3))).every((outcome) => outcome === 'drawn')).toBe(true);
    } finally {
      clearInterval(release);
    }
  });

  it('breaks a title between words, ending in an ellipsis when it goes on', () => {
    expect(wrapText('A fairly long title for a small card', 12, 2)).toEqual(['A fairly', 'long title…']);
    expect(wrapText('Short', 12, 2)).toEqual(['Short']);
    expect(wrapText('Unbreakablewordthatgoeson', 10, 1)).toEqual(['Unbreakab…']);
  });
});

describe('oEmbed', () => {
  const details = () => `${SITE}/observe/cell/${app().piece.cellToken}/details`;

  it('answers a details page with a rich iframe of the embeddable view, its people and its card', async () => {
    const res = await oembed({ url: details(), format: 'json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    const { author, piece } = app();
    expect(body).toMatchObject({
      version: '1.0',
      type: 'rich',
      title: TITLE,
      author_name: `${author.user.firstname} ${author.user.lastname}`,
      author_url: `${SITE}/profile/${author.user.token}`,
      provider_name: 'Gallery Tree',
      provider_url: `${SITE}/`,
      width: 560,
      height: 320,
      thumbnail_url: `${SITE}/card/cell/${piece.cellToken}.png`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });
    expect(body.html).toMatch(
      new RegExp(
        `^<iframe src="${SITE}/embed/cell/${piece.cellToken}" width="560" height="320" sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"`,
      ),
    );
    expect(body.html).toContain('title="Blue &lt;Hour&gt; &amp; &quot;Dawn&quot; by ');
    expect(body.html).not.toContain('<Hour>');
  });

  it('takes the tree at a square and the embed’s own address too, and honours maxwidth and maxheight', async () => {
    const token = app().piece.cellToken;
    for (const url of [`${SITE}/observe?cell=${token}`, `${SITE}/embed/cell/${token}`]) {
      expect((await oembed({ url })).statusCode, url).toBe(200);
    }
    const small = (await oembed({ url: details(), maxwidth: '400', maxheight: '200' })).json();
    expect([small.width, small.height]).toEqual([400, 200]);
    expect(small.html).toContain('width="400" height="200"');
    // The card does not fit: the thumbnail is left out, as the specification asks.
    expect(small.thumbnail_url).toBeUndefined();
    const large = (await oembed({ url: details(), maxwidth: '2000' })).json();
    expect([large.width, large.height, large.thumbnail_width]).toEqual([560, 320, 1200]);
  });

  it('refuses xml with 501, another site or a malformed size with 400, and a piece not on show with 404', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ url: details(), format: 'xml' }, 501],
      [{ url: `https://elsewhere.example/observe/cell/${app().piece.cellToken}/details` }, 400],
      [{ url: 'not a url' }, 400],
      [{}, 400],
      [{ url: details(), maxwidth: '-5' }, 400],
      [{ url: `${SITE}/observe/cell/${app().review.cellToken}/details` }, 404],
      [{ url: `${SITE}/observe/cell/${app().next.cellToken}/details` }, 404],
      [{ url: `${SITE}/observe/cell/${'b'.repeat(32)}/details` }, 404],
      [{ url: `${SITE}/about` }, 404],
      [{ url: `${SITE}/observe/cell/%E0%A4%A/details` }, 404],
    ];
    for (const [params, status] of cases) {
      const res = await oembed(params);
      expect(res.statusCode, JSON.stringify(params)).toBe(status);
      expect(res.json().error, JSON.stringify(params)).toBeTypeOf('string');
    }
  });
});

describe('the details page’s head', () => {
  it('names the card as og:image, large, and links the oEmbed answer', async () => {
    const token = app().piece.cellToken;
    const page = (await get(`/observe/cell/${token}/details`)).body;
    const head = page.slice(0, page.indexOf('</head>'));
    // The card comes first; the piece's own picture after it.
    expect(head).toMatch(
      new RegExp(
        `<meta property="og:image" content="${SITE}/card/cell/${token}.png">.*` +
          '<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">.*' +
          '<meta property="og:image" content="[^"]+/media/[0-9a-f]{32}-large.webp">',
      ),
    );
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    const oembedUrl = `${SITE}/oembed?url=${encodeURIComponent(`${SITE}/observe/cell/${token}/details`)}&format=json`;
    expect(head).toContain(
      `<link rel="alternate" type="application/json+oembed" href="${oembedUrl.replace(/&/g, '&amp;')}" title="Blue &lt;Hour&gt; &amp; &quot;Dawn&quot; (`,
    );
    const pending = (await get(`/observe/cell/${app().review.cellToken}/details`)).body;
    expect(pending).not.toContain('og:image');
    expect(pending).not.toContain('json+oembed');
  });
});

describe('the embeddable view', () => {
  it('shows the piece among its squares, links back in a new tab, and may be framed by any site', async () => {
    const { piece, review, reviewKey } = app();
    const res = await get(`/embed/cell/${piece.cellToken}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    const html = res.body;
    expect(html).toContain('<h1 class="embed-title"><a href="/observe/cell/');
    expect(html).toContain('Blue &lt;Hour&gt; &amp; &quot;Dawn&quot;');
    expect(html).not.toContain('<Hour>');
    expect(html).toMatch(/<img class="embed-picture" src="\/media\/[0-9a-f]{32}-large\.webp"/);
    // At the width it is drawn (decision 047): the narrower widths, then the large size as the widest.
    expect(html).toMatch(/<img class="embed-picture" src="[^"]+" srcset="[^"]*-large\.webp \d+w" sizes="min\(100vw, /);
    expect(html).toContain(`href="/observe/cell/${piece.cellToken}/details" target="_blank" rel="noopener"`);
    expect(html).toMatch(/<script src="\/embed\/assets\/embed\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    // No inline script or style: the policy allows none.
    expect(html).not.toMatch(/<script>|<style|style="/);
    // The square under review is there by its status alone.
    expect(reviewKey).toBeDefined();
    expect(html).not.toContain(review.cellToken);
    expect(html).not.toContain('Under review');

    const script = await get(html.match(/src="(\/embed\/assets\/embed\.js\?v=\w+)"/)![1]!);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(script.headers['cache-control']).toMatch(/immutable/);
  });

  it('answers a small page with 404 for an unknown token or a piece not on show; other pages keep their policy', async () => {
    for (const token of ['nope', app().review.cellToken, app().next.cellToken]) {
      const res = await get(`/embed/cell/${token}`);
      expect(res.statusCode, token).toBe(404);
      expect(res.body, token).toContain('This piece is not on show');
      expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors *');
    }
    // Other paths under /embed/ are not the client's page (which would carry the embed's policy there).
    for (const url of ['/embed/', '/embed/other', `/embed/cell/${app().piece.cellToken}/more`, '/embed/assets/x.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('csrf-token');
    }
    for (const url of ['/card/', '/card/other.png', `/card/cell/${app().piece.cellToken}.png/more`]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
    for (const url of ['/', `/observe/cell/${app().piece.cellToken}/details`, '/oembed']) {
      const res = await get(url);
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });
});
