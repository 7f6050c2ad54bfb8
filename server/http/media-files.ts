/**
 * GET /media/<name>: the pictures, content-addressed and so cached for a year without asking again. From the media
 * folder through @fastify/static, as always. From object storage (decision 044), streamed through the server with
 * the same caching, unless the store has a public address: pages link that, and /media/ only sends the browser
 * there (a link made before the address was configured, or by a caller with no storage at hand).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf, isMediaName, MEDIA_PATH_PREFIX, type MediaStorage } from '../storage/index.ts';

/**
 * Whether a media name may be served: not an upload kept for its deep-zoom pyramid (decision 048), which still has
 * its metadata (a camera's position) and is read by the pyramid job alone.
 */
export function isServedMediaName(name: string): boolean {
  return isMediaName(name) && !name.endsWith('.orig');
}

/** What @fastify/static sends for the folder's files: a year, and never asked again (the names are the bytes' hash). */
const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** How long a browser keeps the way to a public address: a day, since the operator may move the pictures again. */
const CACHE_REDIRECT = 'public, max-age=86400';

export async function registerMediaFiles(server: FastifyInstance, media: MediaStorage): Promise<void> {
  const where = media.describe();
  if (where.kind === 'folder') {
    await server.register(fastifyStatic, {
      root: where.dir,
      prefix: MEDIA_PATH_PREFIX,
      decorateReply: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      allowedPath: (pathName) => isServedMediaName(pathName.replace(/^\/+/, '')),
    });
    return;
  }
  const handler = where.publicBaseUrl ? sendToPublicAddress(media) : streamFromStore(media);
  server.route<{ Params: { name: string } }>({
    method: ['GET', 'HEAD'],
    url: `${MEDIA_PATH_PREFIX}:name`,
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      // Not a media name: nothing the store could hold (and nothing to put in an address).
      if (!isServedMediaName(req.params.name)) return reply.callNotFound();
      return await handler(req, reply);
    },
  });
}

type MediaHandler = (req: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => Promise<unknown>;

function sendToPublicAddress(media: MediaStorage): MediaHandler {
  return async (req, reply) =>
    reply.code(302).header('cache-control', CACHE_REDIRECT).redirect(media.urlOf(req.params.name));
}

/**
 * The store's object, streamed as it arrives. Its ETag is its name, which stands for its bytes, so a browser holding
 * it is answered 304 without asking the store; a HEAD asks the store for the size alone.
 */
function streamFromStore(media: MediaStorage): MediaHandler {
  return async (req, reply) => {
    const { name } = req.params;
    const etag = `"${name}"`;
    reply.header('cache-control', CACHE_IMMUTABLE).header('etag', etag);
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.code(304).send();
    try {
      if (req.method === 'HEAD') {
        const found = await media.lookUp(name);
        if (!found) return notFound(reply);
        return reply.type(contentTypeOf(name)).header('content-length', found.size).send();
      }
      const stream = await media.stream(name);
      if (!stream) return notFound(reply);
      return reply.type(stream.contentType).header('content-length', stream.size).send(stream.body);
    } catch (error) {
      // The store is away or failing: worth trying again shortly, and never to be kept by a cache.
      req.log.warn({ err: error }, 'a picture could not be read from the media storage');
      return reply.code(503).header('cache-control', 'no-store').header('retry-after', '5').send();
    }
  };
}

/** As the folder answers a missing file: the app's 404, which no cache keeps for a year. */
function notFound(reply: FastifyReply) {
  reply.removeHeader('cache-control').removeHeader('etag');
  return reply.callNotFound();
}
