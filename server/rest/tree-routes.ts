/**
 * GET /api/tree/{treeToken}: the snapshot as precompressed bytes with an ETag (DESIGN.md §6). A plain route, not a
 * tRPC call: stringifying a large tree per request would cost far more than sending bytes built once. The snapshot
 * may be a few versions behind the tree: its `version` says which, and /changes brings it up to date (decision 023).
 * GET /api/tree/{treeToken}/changes?since=: the cells changed after a version (shared/tree/changes.ts), ETagged.
 * GET /api/tree/{treeToken}/events: the same changes pushed as Server-Sent Events (http/tree-events.ts).
 * GET /api/tree/{treeToken}/history: the published pieces in publish order (shared/tree/history.ts), precompressed and
 * ETagged by version like the snapshot (services/tree/tree-history.ts).
 * GET /api/tree/{treeToken}/region: tokens, thumbnails and titles of one bounded rectangle (shared/tree/region.ts),
 * which a large tree's snapshot leaves out; ETagged by the tree's version, so an unchanged region is a 304.
 * Regions and changes are read from the database per request, so they are rate-limited per IP (generously).
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
