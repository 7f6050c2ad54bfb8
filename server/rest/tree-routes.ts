/**
 * GET /api/tree/{treeToken}: the snapshot as precompressed bytes with an ETag (DESIGN.md §6). A plain route, not a
 * tRPC call: stringifying a large tree per request would cost far more than sending bytes built once.
 */
import type { FastifyInstance } from 'fastify';
import { getTreeByToken } from '../services/tree.ts';

function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

export function registerTreeRoutes(api: FastifyInstance): void {
  api.get<{ Params: { treeToken: string } }>('/tree/:treeToken', async (req, reply) => {
    const snapshot = api.deps.snapshots.get(getTreeByToken(api.deps.db, req.params.treeToken));
    reply.header('etag', snapshot.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    reply.type('application/json; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(snapshot.body[encoding]);
  });
}
