/**
 * The tree's plain routes (docs/api.md): the snapshot and the growth history as precompressed bytes with an ETag, the
 * changes since a version (held as a long-poll with `wait`), their event stream, one region's details. Not tRPC calls:
 * stringifying a large tree per request would cost far more than sending bytes built once (decisions 002, 023).
 * Every answer is the same for everyone, so a shared cache may keep it (decision 033): for good when the address
 * names the version the answer is, for a moment otherwise.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { regionQuery } from '#shared/tree/region.ts';
import { AppError } from '../errors.ts';
import { preferredEncoding, sendCompressed, type Encoding } from '../http/compress.ts';
import { parseWait } from '../http/tree-long-poll.ts';
import { LIMITS, hitRateLimit } from '../services/rate-limit.ts';
import { getTreeByToken, parseSince, readChanges, parseRegionBounds, readRegion } from '../services/tree/index.ts';

/** An answer that is the version its address names (`?v=`): the same bytes for good. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The tree as it is now (the snapshot may be a few versions behind anyway: the page follows it with /changes): a
 * browser asks again each time, with its ETag; a shared cache may answer for a second.
 */
export const CACHE_CURRENT = 'public, max-age=0, s-maxage=1';
/**
 * A long-poll that brings changes (or resync). It stays true of its address, since the log only grows: a later reader
 * at `since` takes these and asks again from their version. Kept a second, so that every request a cache holds behind
 * the first is answered from it; served stale while one request refreshes it, so an expired copy is no stampede.
 */
export const CACHE_CHANGES = 'public, max-age=1, s-maxage=1, stale-while-revalidate=30';
/** A long-poll that brings nothing new: true of this moment only, never kept (nor is any refusal: adapter.ts). */
export const CACHE_NEVER = 'no-store';
/** The /changes answer without `wait`, as before the long-poll: a browser and a cache ask again each time. */
const CACHE_REVALIDATE = 'no-cache';

/** Routes whose answer depends on nothing about the viewer: no session is read for them, no cookie set. */
const SAME_FOR_EVERYONE = { config: { sameForEveryone: true } };

type TreeRequest = FastifyRequest<{ Params: { treeToken: string }; Querystring: Record<string, unknown> }>;

/** `?v=`, the version an address names: null when absent, else a whole number from 0 up, or a 400. */
function parseAskedVersion(raw: unknown): number | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) {
    throw new AppError(ErrorCode.BadRequest, 'v must be a tree version: a whole number from 0 up.', {
      v: ['Expected a whole number from 0 up.'],
    });
  }
  return Number(raw);
}

/** Immutable only when the address named the version and the answer is that version's. */
function cacheFor(version: number, asked: number | null): string {
  return asked === version ? CACHE_IMMUTABLE : CACHE_CURRENT;
}

type BuiltBytes = { etag: string; version: number; body: Record<Encoding, Buffer> };

/** Bytes built once per version (the snapshot, the history), in the encoding the browser takes. */
function sendBuilt(req: TreeRequest, reply: FastifyReply, built: BuiltBytes, asked: number | null): FastifyReply {
  reply.header('etag', built.etag).header('cache-control', cacheFor(built.version, asked));
  reply.header('vary', 'accept-encoding');
  if (req.headers['if-none-match'] === built.etag) return reply.code(304).send();
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  reply.type('application/json; charset=utf-8');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(built.body[encoding]);
}

export function registerTreeRoutes(api: FastifyInstance): void {
  /** A store of bytes built per version (snapshots, histories), answered at the version the address asks. */
  const serveBuilt =
    <B extends BuiltBytes>(store: {
      peek: (treeId: number) => B | null;
      get: (tree: ReturnType<typeof getTreeByToken>) => Promise<B>;
    }) =>
    async (req: TreeRequest, reply: FastifyReply) => {
      const asked = parseAskedVersion(req.query.v);
      const tree = getTreeByToken(api.deps.db, req.params.treeToken);
      // The version asked is the one kept: it is sent as it is, whatever the tree has become since.
      const kept = store.peek(tree.id);
      return sendBuilt(req, reply, kept && kept.version === asked ? kept : await store.get(tree), asked);
    };
  api.get('/tree/:treeToken', SAME_FOR_EVERYONE, serveBuilt(api.deps.snapshots));
  api.get('/tree/:treeToken/history', SAME_FOR_EVERYONE, serveBuilt(api.deps.histories));

  api.get('/tree/:treeToken/changes', SAME_FOR_EVERYONE, async (req: TreeRequest, reply) => {
    const since = parseSince(req.query.since);
    const wait = req.query.wait === undefined ? null : parseWait(req.query.wait);
    // Each answer is a database read built per request, so it is limited per address (generously).
    hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeChangesPerIp, req.ip);
    const tree = getTreeByToken(api.deps.db, req.params.treeToken);
    let answer = readChanges(api.deps.db, tree.id, since);
    let cacheControl = CACHE_REVALIDATE;
    if (wait !== null) {
      const polls = api.deps.treeEvents?.longPolls;
      // Nothing after `since` yet: held until the first commit after it, or the wait runs out.
      if (answer.version === since && polls) {
        const woken = await polls.hold(tree.id, since, wait * 1000, req.signal);
        // The reader left: there is no one to answer.
        if (req.signal.aborted) return;
        answer = woken ?? readChanges(api.deps.db, tree.id, since);
      }
      cacheControl = answer.version === since ? CACHE_NEVER : CACHE_CHANGES;
    }
    const etag = `"t${tree.id}c${since}-${answer.version}"`;
    reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: answer })));
  });

  api.get('/tree/:treeToken/events', SAME_FOR_EVERYONE, async (req: TreeRequest, reply) => {
    const feed = api.deps.treeEvents;
    if (!feed) return reply.code(404).send();
    feed.open(req, reply, getTreeByToken(api.deps.db, req.params.treeToken));
    return reply;
  });

  api.get('/tree/:treeToken/region', SAME_FOR_EVERYONE, async (req: TreeRequest, reply) => {
    // Each answer is a database read built per request (the snapshot's bytes are kept; these are not).
    hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeRegionPerIp, req.ip);
    const tree = getTreeByToken(api.deps.db, req.params.treeToken);
    const bounds = parseRegionBounds(req.query);
    const asked = parseAskedVersion(req.query.v);
    const etagAt = (version: number) => `"t${tree.id}v${version}:${regionQuery(bounds).replace(/[^\d&-]/g, '')}"`;
    reply.header('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === etagAt(tree.version)) {
      reply.header('etag', etagAt(tree.version)).header('cache-control', cacheFor(tree.version, asked));
      return reply.code(304).send();
    }
    const region = readRegion(api.deps.db, tree, bounds);
    reply.header('etag', etagAt(region.version)).header('cache-control', cacheFor(region.version, asked));
    reply.type('application/json; charset=utf-8');
    return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: region })));
  });
}
