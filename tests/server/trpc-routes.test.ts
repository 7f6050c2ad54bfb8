/**
 * The short path for tRPC GET queries (server/http/trpc-routes.ts, decision 017) answers exactly as @trpc/server's
 * own Fastify adapter does: the same status, body and headers for single and batched queries, successes, failures
 * and mixed batches; unusual requests are handed to the adapter itself.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf } from '#server/http/request-context.ts';
import { jsonTextOf } from '#server/raw-json.ts';
import { appRouter } from '#server/root.ts';
import { getDefaultTree, createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/server/reservation-fixtures.ts';

let t: TestApp;
/** The same router and context behind the stock adapter, for comparison. */
let stock: FastifyInstance;
let cellToken: string;
let treeToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const tree = (await getDefaultTree(t.deps.db)) ?? (await createTree(t.deps.db, t.clock.now(), 'Tree'));
  cellToken = (await cellAt(t.deps.db, tree.id, 33, 1))!.token;
  treeToken = tree.token;
  stock = Fastify();
  stock.decorate('deps', t.deps);
  stock.decorateRequest('auth', null);
  await stock.register(fastifyCookie);
  await stock.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }: CreateFastifyContextOptions) => contextOf(req, res),
    },
  });
});
afterAll(async () => {
  await stock.close();
  await t.cleanup();
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function both(url: string, headers: Record<string, string> = {}) {
  const [ours, theirs] = await Promise.all([t.server.inject({ url, headers }), stock.inject({ url, headers })]);
  const view = (res: typeof ours) => ({
    status: res.statusCode,
    body: res.body,
    type: res.headers['content-type'],
    vary: res.headers.vary,
  });
  return { ours: view(ours), theirs: view(theirs) };
}

describe('tRPC GET queries answer as the stock adapter does', () => {
  const cases: [string, () => string][] = [
    ['a single query', () => `/trpc/cell.get?input=${input({ token: cellToken })}`],
    ['a batch of one', () => `/trpc/cell.get?batch=1&input=${input({ 0: { token: cellToken } })}`],
    [
      'a batch of two',
      () => `/trpc/cell.get,cell.get?batch=1&input=${input({ 0: { token: cellToken }, 1: { token: cellToken } })}`,
    ],
    ['a query without input', () => '/trpc/misc.initialParams'],
    ['a failing query (unknown cell)', () => `/trpc/cell.get?input=${input({ token: 'AAAAAAAAAAAAAAAAAAAAAA' })}`],
    ['a query with invalid input', () => `/trpc/cell.get?input=${input({ token: 5 })}`],
    [
      'a mixed batch (207)',
      () =>
        `/trpc/cell.get,cell.get?batch=1&input=${input({ 0: { token: cellToken }, 1: { token: 'AAAAAAAAAAAAAAAAAAAAAA' } })}`,
    ],
    ['a query needing a signed-in user, as a guest', () => '/trpc/cell.mine'],
    ['an unknown procedure (handed to the adapter)', () => '/trpc/cell.nothing'],
    [
      'a mutation asked by GET (handed to the adapter)',
      () => `/trpc/cell.reserve?input=${input({ token: cellToken })}`,
    ],
    ['input that is not JSON (handed to the adapter)', () => '/trpc/cell.get?input=%7Bnot-json'],
    [
      'a batch whose input is not an object (handed to the adapter)',
      () => `/trpc/cell.get?batch=1&input=${input([1])}`,
    ],
    // A tree's snapshot and history are written from the bytes the server keeps (raw-json.ts), alone and in a batch.
    ['the tree snapshot', () => `/trpc/tree.get?input=${input({ token: treeToken })}`],
    ['the tree snapshot again (its kept text)', () => `/trpc/tree.get?input=${input({ token: treeToken })}`],
    ['the growth history', () => `/trpc/tree.history?input=${input({ token: treeToken })}`],
    [
      'a batch of a snapshot, a cell and a failure',
      () =>
        `/trpc/tree.get,cell.get,tree.history?batch=1&input=${input({ 0: { token: treeToken }, 1: { token: cellToken }, 2: { token: 'AAAAAAAAAAAAAAAAAAAAAA' } })}`,
    ],
    [
      'a repeated parameter (handed to the adapter)',
      () => `/trpc/cell.get?batch=1&batch=0&input=${input({ 0: { token: cellToken } })}`,
    ],
  ];
  for (const [name, url] of cases) {
    it(name, async () => {
      const { ours, theirs } = await both(url());
      expect(ours).toEqual(theirs);
    });
  }

  it('sends a kept snapshot from its bytes: the object tree.get answers has its JSON text kept beside it', async () => {
    const wire = await t.caller().tree.get({ token: treeToken });
    expect(jsonTextOf(wire)?.toString()).toBe(JSON.stringify(wire));
    const res = await t.server.inject({ url: `/trpc/tree.get?input=${input({ token: treeToken })}` });
    expect(res.body).toBe(`{"result":{"data":${JSON.stringify(wire)}}}`);
  });

  it('a streaming request (trpc-accept: application/jsonl) is handed to the adapter', async () => {
    const { ours, theirs } = await both(`/trpc/cell.get?batch=1&input=${input({ 0: { token: cellToken } })}`, {
      'trpc-accept': 'application/jsonl',
    });
    expect(ours.status).toBe(theirs.status);
    expect(ours.body).toBe(theirs.body);
  });
});
