/**
 * What a browser gets besides the API: the built client's page for every client route (with its initial parameters,
 * its CSRF token and, on the tree page, the server's sketch), the Open Graph tags of a shared piece, the built
 * assets, the media files, the staff dashboard's page, the feed, and a piece's card, oEmbed answer and embed.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import { AppError } from '../errors.ts';
import { ok } from '../rest/adapter.ts';
import { getDefaultTree, initialParams, TreeSketches } from '../services/tree/index.ts';
import type { AppDeps } from '../trpc.ts';
import { registerAdminPage } from './admin-page.ts';
import { artOpenGraphTags } from './art-open-graph.ts';
import { sendCompressed } from './compress.ts';
import { ensureCsrfToken } from './csrf.ts';
import { registerFeed } from './feed.ts';
import { registerMediaFiles } from './media-files.ts';
import { registerSharing } from './sharing-routes.ts';
import { createIndexRenderer } from './index-html.ts';
import { FILE_PREFIXES } from './request-guards.ts';

/** Registers the pages, files and the not-found handler (every other GET is a client route). */
export async function registerPages(server: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  await registerMediaFiles(server, deps.media);

  const renderIndex = createIndexRenderer(config.clientDir);
  const sketches = new TreeSketches(db, deps.snapshots);
  /** A first visit to the tree opens with its sketch already in the page (server/services/tree/tree-sketch.ts). */
  const sketchFor = async (req: FastifyRequest): Promise<string> => {
    const [pathname, search = ''] = req.url.split('?', 2);
    if (pathname !== TREE_PAGE_PATH) return '';
    try {
      const tree = await getDefaultTree(db);
      return tree ? await sketches.forVisit(tree, search) : '';
    } catch (error) {
      // The page works without it: the engine draws the tree as it always does.
      req.log.warn({ err: error }, 'the tree sketch could not be drawn');
      return '';
    }
  };
  const sendPage = async (req: FastifyRequest, reply: FastifyReply, extraHead = '') => {
    const csrfToken = ensureCsrfToken(req, reply, config.secureCookies);
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return sendCompressed(
      req,
      reply,
      Buffer.from(renderIndex(await initialParams(deps), csrfToken, extraHead, await sketchFor(req))),
    );
  };
  // A shared art details link previews the piece (Open Graph); the page itself is the client's as everywhere else.
  server.get<{ Params: { cellToken: string } }>(
    '/observe/cell/:cellToken/details',
    async (req, reply) => await sendPage(req, reply, await artOpenGraphTags(deps, req.params.cellToken)),
  );

  // The folder may not exist yet: `npm start` builds the client after the app is built, just before listening.
  const assetsDir = path.join(config.clientDir, 'assets');
  fs.mkdirSync(assetsDir, { recursive: true });
  await server.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    // NAME.br and NAME.gz, written beside each text asset at build time (scripts/client-build.ts), for browsers that
    // take them.
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
  });
  for (const file of ['favicon.svg', 'robots.txt']) {
    server.get(`/${file}`, (_req, reply) => {
      const full = path.join(config.clientDir, file);
      if (!fs.existsSync(full)) return reply.code(404).send();
      return reply.type(file.endsWith('.svg') ? 'image/svg+xml' : 'text/plain').send(fs.createReadStream(full));
    });
  }

  registerAdminPage(server);
  registerFeed(server);
  registerSharing(server, deps);

  // Every other GET is a client route: the app decides what to show (its own not-found page included).
  server.setNotFoundHandler(async (req, reply) => {
    const isFile = FILE_PREFIXES.some((prefix) => req.url.startsWith(prefix));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isFile) {
      return reply.code(404).send(ok(new AppError(ErrorCode.NotFound).toBody()));
    }
    return await sendPage(req, reply);
  });
}
