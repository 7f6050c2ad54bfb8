/**
 * Compression of answers built per request (the region details, the app's pages): brotli or gzip, whichever the
 * browser takes, at fast settings. The snapshot's bytes are compressed once per tree version instead
 * (server/services/tree/tree.ts), and only picked here.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Encoding = 'br' | 'gzip' | 'identity';

export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

/** Answers this small are sent as they are: compressing them saves nothing worth the time. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends `body` compressed when the browser accepts it and it is worth it. Fast settings: a 32 × 32 region, or a page
 * with the tree's sketch of a zoomed-out view (about 100 KB), compresses in a millisecond or two.
 */
export function sendCompressed(req: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply {
  reply.header('vary', 'accept-encoding');
  const encoding = body.length < COMPRESS_FROM_BYTES ? 'identity' : preferredEncoding(req.headers['accept-encoding']);
  if (encoding === 'identity') return reply.send(body);
  reply.header('content-encoding', encoding);
  return reply.send(
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
        })
      : gzipSync(body, { level: 6 }),
  );
}
