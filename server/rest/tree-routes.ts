/**
 * The tree's plain routes (docs/api.md): the snapshot and the growth history as precompressed bytes with an ETag, the
 * changes since a version, their event stream, one region's details. Not tRPC calls: stringifying a large tree per
 * request would cost far more than sending bytes built once (decisions 002, 023).
 */
import type { FastifyInstance } from 'fastify';
import { regionQuery } from '#shared/tree/region.ts';
import { preferredEncoding, sendCompressed } from '../http/compress.ts';
import { LIMITS, hitRateLimit } from '../services/rate-limit.ts';
import { getTreeByToken } from '../services/tree/tree.ts';
import { parseSince, readChanges } from '../services/tree/tree-changes.ts';
import { parseRegionBounds, readRegion } from '../services/tree/tree-region.ts';

export function registerTreeRoutes(api: FastifyInstance): void {
  api.get<{ Params: { treeToken: string } }>('/tree/:treeToken', async (req, reply) => {
    const snapshot = await api.deps.snapshots.get(getTreeByToken(api.deps.db, req.params.treeToken));
    reply.header('etag', snapshot.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === snapshot.etag) return reply.code(304).send();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    reply.type('application/json; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(snapshot.body[encoding]);
  });

  api.get<{ Params: { treeToken: string } }>('/tree/:treeToken/history', async (req, reply) => {
    const history = await api.deps.histories.get(getTreeByToken(api.deps.db, req.params.treeToken));
    reply.header('etag', history.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === history.etag) return reply.code(304).send();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    reply.type('application/json; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(history.body[encoding]);
  });

  api.get<{ Params: { treeToken: string }; Querystring: Record<string, unknown> }>(
    '/tree/:treeToken/changes',
    async (req, reply) => {
      // Each answer is a database read built per request, so it is limited per address (generously).
      hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeChangesPerIp, req.ip);
      const tree = getTreeByToken(api.deps.db, req.params.treeToken);
      const since = parseSince(req.query.since);
      const answer = readChanges(api.deps.db, tree.id, since);
      const etag = `"t${tree.id}c${since}-${answer.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: answer })));
    },
  );

  api.get<{ Params: { treeToken: string }; Querystring: Record<string, unknown> }>(
    '/tree/:treeToken/events',
    async (req, reply) => {
      const feed = api.deps.treeEvents;
      if (!feed) return reply.code(404).send();
      feed.open(req, reply, getTreeByToken(api.deps.db, req.params.treeToken));
      return reply;
    },
  );

  api.get<{ Params: { treeToken: string }; Querystring: Record<string, unknown> }>(
    '/tree/:treeToken/region',
    async (req, reply) => {
      // Each answer is a database read built per request (the snapshot's bytes are kept; these are not).
      hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeRegionPerIp, req.ip);
      const tree = getTreeByToken(api.deps.db, req.params.treeToken);
      const bounds = parseRegionBounds(req.query);
      const etag = `"t${tree.id}v${tree.version}:${regionQuery(bounds).replace(/[^\d&-]/g, '')}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: readRegion(api.deps.db, tree, bounds) })));
    },
  );
}
