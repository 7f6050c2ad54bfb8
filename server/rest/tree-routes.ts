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
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { AppError } from '../errors.ts';
import { preferredEncoding, sendCompressed, type Encoding } from '../http/compress.ts';
import { parseWait } from '../http/tree-long-poll.ts';
import { LIMITS, hitRateLimit } from '../services/rate-limit.ts';
import { getTreeByToken, parseSince, readChanges, parseRegionBounds, readRegion } from '../services/tree/index.ts';
import type { HandWrittenRoute } from '../trpc.ts';
import { apiUrl } from './adapter.ts';
import * as examples from './examples.ts';

/** An answer that is the version its address names (`?v=`): the same bytes for good. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The tree as it is now (the snapshot may be a few versions behind anyway: the page follows it with /changes): a
 * browser asks again each time, with its ETag; a shared cache may answer for a second.
 */
export const CACHE_CURRENT = 'public, max-age=0, s-maxage=1';
/**
 * A long-poll that brings changes (or resync). It stays true of its address, since the log only grows: a later reader
 * at `since` takes these and asks again from their version. A browser keeps it a second; a shared cache five, so
 * that every request it holds behind the first is answered from it, and so are the viewers a few seconds behind
 * (a large audience always has some), who then step through the answers kept for the versions after, instead of
 * each late address costing the origin a request. Served stale while one request refreshes it, so an expired copy is
 * no stampede.
 */
export const CACHE_CHANGES = 'public, max-age=1, s-maxage=5, stale-while-revalidate=30';
/** A long-poll that brings nothing new: true of this moment only, never kept (nor is any refusal: adapter.ts). */
export const CACHE_NEVER = 'no-store';
/** The /changes answer without `wait`, as before the long-poll: a browser and a cache ask again each time. */
const CACHE_REVALIDATE = 'no-cache';

/** Routes whose answer depends on nothing about the viewer: no session is read for them, no cookie set. */
const SAME_FOR_EVERYONE = { config: { sameForEveryone: true } };

type TreeRequest = FastifyRequest<{ Params: { treeToken: string }; Querystring: Record<string, unknown> }>;

const SNAPSHOT: HandWrittenRoute = {
  method: 'GET',
  path: '/api/tree/:treeToken',
  who: 'everyone',
  does: 'the tree snapshot, precompressed, with an ETag; it may be a few versions behind the tree (its `version` says which): follow it with `/changes?since=<version>`; `?v=<version>` asks for that version: immutable when the kept snapshot is it, else the kept one, short-lived (400 for a malformed `v`); JSON, or the [binary form](#the-snapshots-binary-form) when `Accept` names `application/vnd.gallery.tree-snapshot`; [caching](#the-tree-through-a-shared-cache)',
  via: '(plain route)',
  example: examples.snapshot,
};

const CHANGES: HandWrittenRoute = {
  method: 'GET',
  path: '/api/tree/:treeToken/changes',
  who: 'everyone',
  does: 'the cells changed after `?since=` (a version), as they are now, with an ETag; `{resync: true}` when the log no longer reaches that far (fetch the snapshot); 400 for a malformed, negative or future version; with `&wait=` (1 to 25 seconds) a [long-poll](#the-tree-through-a-shared-cache): held until the first commit after `since` or for `wait` seconds, 400 for a malformed `wait`, 503 with Retry-After when the process holds `LONG_POLLS_MAX` polls; rate-limited',
  via: '`tree.changes`',
  example: examples.changes,
};

const EVENTS: HandWrittenRoute = {
  method: 'GET',
  path: '/api/tree/:treeToken/events',
  who: 'everyone',
  does: 'Server-Sent Events: `changes` (the /changes answer), `version` (large: ask /changes), `resync`; each id is a version, and `Last-Event-ID` (or `?since=`) resumes; 8 streams per address (an IPv6 /64), then 429; opening is rate-limited',
  via: '(plain route)',
  example: examples.events,
};

const HISTORY: HandWrittenRoute = {
  method: 'GET',
  path: '/api/tree/:treeToken/history',
  who: 'everyone',
  does: 'the growth history for the replay: every piece now published, in publish order (rows as differences, absolute columns, hours since the previous piece: shared/tree/history.ts), precompressed, with an ETag by version; built off the event loop and kept per version (1,000,000 cells: 801,852 pieces, 206 KB brotli); `tree.history` answers the same object, but tRPC stringifies it per call (about 400 ms of the event loop at that size), so large trees use this route; `?v=<version>` as for the snapshot',
  via: '`tree.history`',
  example: examples.history,
};

const REGION: HandWrittenRoute = {
  method: 'GET',
  path: '/api/tree/:treeToken/region',
  who: 'everyone',
  does: "tokens, thumbnails, titles and artists of one rectangle of a large tree, at the tree's version (read in one transaction); `&v=<version>`: immutable when that is the tree's version, else the current answer, short-lived",
  via: '(plain route)',
  example: examples.region,
};

/** The tree's routes, declared once each (decision 036). */
export const TREE_ROUTES: readonly HandWrittenRoute[] = [SNAPSHOT, CHANGES, EVENTS, HISTORY, REGION];

/** A declared tree route, for everyone alike. */
const treeRoute = (route: HandWrittenRoute, handler: (req: TreeRequest, reply: FastifyReply) => Promise<unknown>) => ({
  method: route.method,
  url: apiUrl(route),
  ...SAME_FOR_EVERYONE,
  handler,
});

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

type BuiltBytes = { etag: string; version: number; body: Record<Encoding, Buffer>; type?: string };

/** Bytes built once per version (the snapshot, the history), in the encoding the browser takes. */
function sendBuilt(
  req: TreeRequest,
  reply: FastifyReply,
  built: BuiltBytes,
  asked: number | null,
  vary = 'accept-encoding',
): FastifyReply {
  reply.header('etag', built.etag).header('cache-control', cacheFor(built.version, asked));
  reply.header('vary', vary);
  if (req.headers['if-none-match'] === built.etag) return reply.code(304).send();
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  reply.type(built.type ?? 'application/json; charset=utf-8');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(built.body[encoding]);
}

/** Whether a snapshot's reader asked for the binary form (the page does: decision 050); everyone else gets JSON. */
function acceptsBinarySnapshot(req: TreeRequest): boolean {
  return (req.headers.accept ?? '').includes(SNAPSHOT_BINARY_TYPE);
}

export function registerTreeRoutes(api: FastifyInstance): void {
  /** A version's kept bytes (snapshots, histories): the one the address asks when kept, else the store's current. */
  const builtFor = async <B extends BuiltBytes>(
    store: {
      peek: (treeId: number) => B | null;
      get: (tree: Awaited<ReturnType<typeof getTreeByToken>>) => Promise<B>;
    },
    req: TreeRequest,
    asked: number | null,
  ): Promise<B> => {
    const tree = await getTreeByToken(api.deps.db, req.params.treeToken);
    // The version asked is the one kept: it is sent as it is, whatever the tree has become since.
    const kept = store.peek(tree.id);
    return kept && kept.version === asked ? kept : store.get(tree);
  };
  api.route(
    treeRoute(SNAPSHOT, async (req, reply) => {
      const asked = parseAskedVersion(req.query.v);
      const snapshot = await builtFor(api.deps.snapshots, req, asked);
      const form = acceptsBinarySnapshot(req) ? snapshot : await snapshot.json();
      return sendBuilt(req, reply, form, asked, 'accept, accept-encoding');
    }),
  );
  api.route(
    treeRoute(HISTORY, async (req, reply) => {
      const asked = parseAskedVersion(req.query.v);
      return sendBuilt(req, reply, await builtFor(api.deps.histories, req, asked), asked);
    }),
  );

  api.route(
    treeRoute(CHANGES, async (req, reply) => {
      const since = parseSince(req.query.since);
      const wait = req.query.wait === undefined ? null : parseWait(req.query.wait);
      // Each answer is a database read built per request, so it is limited per address (generously).
      await hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeChangesPerIp, req.ip);
      const tree = await getTreeByToken(api.deps.db, req.params.treeToken);
      let answer = await readChanges(api.deps.db, tree.id, since, api.deps.media.urlOf);
      let cacheControl = CACHE_REVALIDATE;
      if (wait !== null) {
        const feed = api.deps.treeEvents;
        // Nothing after `since` yet: held until the first commit after it, or the wait runs out.
        if (answer.version === since && feed) {
          const woken = await feed.holdPoll(tree.id, since, wait * 1000, req.signal);
          // The reader left: there is no one to answer.
          if (req.signal.aborted) return;
          answer = woken ?? (await readChanges(api.deps.db, tree.id, since, api.deps.media.urlOf));
        }
        cacheControl = answer.version === since ? CACHE_NEVER : CACHE_CHANGES;
      }
      const etag = `"t${tree.id}c${since}-${answer.version}"`;
      reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: answer })));
    }),
  );

  api.route(
    treeRoute(EVENTS, async (req, reply) => {
      const feed = api.deps.treeEvents;
      if (!feed) return reply.code(404).send();
      // Each open reads the tree and the log: limited per address, counted in memory (decision 040).
      await hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeStreamOpensPerIp, req.ip);
      // The embeddable view follows it from another site's sandboxed frame, whose origin is no one's (decision 046);
      // the stream is the same for everyone and no cookie rides on it.
      reply.header('access-control-allow-origin', '*');
      await feed.open(req, reply, await getTreeByToken(api.deps.db, req.params.treeToken));
      return reply;
    }),
  );

  api.route(
    treeRoute(REGION, async (req, reply) => {
      // Each answer is a database read built per request (the snapshot's bytes are kept; these are not).
      await hitRateLimit(api.deps.db, api.deps.clock.now(), LIMITS.treeRegionPerIp, req.ip);
      const tree = await getTreeByToken(api.deps.db, req.params.treeToken);
      const bounds = parseRegionBounds(req.query);
      const asked = parseAskedVersion(req.query.v);
      const etagAt = (version: number) => `"t${tree.id}v${version}:${regionQuery(bounds).replace(/[^\d&-]/g, '')}"`;
      reply.header('vary', 'accept-encoding');
      if (req.headers['if-none-match'] === etagAt(tree.version)) {
        reply.header('etag', etagAt(tree.version)).header('cache-control', cacheFor(tree.version, asked));
        return reply.code(304).send();
      }
      const region = await readRegion(api.deps.db, tree, bounds, api.deps.media.urlOf);
      reply.header('etag', etagAt(region.version)).header('cache-control', cacheFor(region.version, asked));
      reply.type('application/json; charset=utf-8');
      return sendCompressed(req, reply, Buffer.from(JSON.stringify({ r: region })));
    }),
  );
}
