/**
 * invokeProcedure (server/http/invoke-procedure.ts), which the REST adapter and the tRPC GET short path use instead
 * of tRPC's own caller, gives what tRPC's caller gives: the same answer, the same error (code, message, cause) for
 * refusals, bad input and service errors, and middlewares that pass a changed ctx or input on are honoured.
 */
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { TRPCError } from '@trpc/server';
import type { AnyProcedure } from '@trpc/server/unstable-core-do-not-import';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { invokeProcedure } from '#server/http/invoke-procedure.ts';
import { contextOf } from '#server/http/request-context.ts';
import { appRouter } from '#server/root.ts';
import { getDefaultTree, createTree } from '#server/services/tree/tree.ts';
import { createCallerFactory, publicProcedure, router, type RequestContext } from '#server/trpc.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/server/reservation-fixtures.ts';

let t: TestApp;
let cellToken: string;
beforeAll(async () => {
  t = await createTestApp();
  const tree = (await getDefaultTree(t.deps.db)) ?? (await createTree(t.deps.db, t.clock.now(), 'Tree'));
  cellToken = (await cellAt(t.deps.db, tree.id, 33, 1))!.token;
});
afterAll(() => t.cleanup());

function contextFor(user: RequestContext['user']): RequestContext {
  return { ...t.deps, user, session: null, ip: '127.0.0.1', sessionCookie: { set() {}, clear() {} } };
}

/** What a call came to: its data, or its error's class, code, message and the cause's class. */
async function outcome(call: () => Promise<unknown>) {
  try {
    return { data: await call() };
  } catch (error) {
    const e = error as TRPCError;
    return {
      error: { trpc: e instanceof TRPCError, code: e.code, message: e.message, cause: e.cause?.constructor.name },
    };
  }
}

describe("invokeProcedure answers as tRPC's caller does", () => {
  /** What, which procedure, its input, as whom, and the expected outcome: 'data' or the TRPCError's code. */
  const cases: [string, string, () => unknown, Role | null, string][] = [
    ['a read', 'cell.get', () => ({ token: cellToken }), null, 'data'],
    ['a malformed token', 'cell.get', () => ({ token: 'short' }), null, 'BAD_REQUEST'],
    ['an unknown cell', 'cell.get', () => ({ token: 'A'.repeat(22) }), null, 'NOT_FOUND'],
    ['input of the wrong shape', 'cell.get', () => ({ token: 42 }), null, 'BAD_REQUEST'],
    ['no input at all', 'cell.get', () => undefined, null, 'BAD_REQUEST'],
    ['a guest asking for what needs an account', 'cell.mine', () => undefined, null, 'UNAUTHORIZED'],
    ['an observer asking for what needs an admin', 'admin.overview', () => undefined, Role.Observer, 'FORBIDDEN'],
    ['a signed-in read', 'cell.mine', () => undefined, Role.Artist, 'data'],
  ];
  for (const [what, path, input, role, expected] of cases) {
    it(`${what} (${path})`, async () => {
      const procedure = (appRouter._def.procedures as unknown as Record<string, AnyProcedure>)[path];
      expect(procedure, path).toBeDefined();
      const user = role === null ? null : (await t.addUser(role)).user;
      const [space, name] = path.split('.') as [string, string];
      const theirs = await outcome(() =>
        (t.caller(user) as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>)[space]![name]!(
          input(),
        ),
      );
      const ours = await outcome(() =>
        invokeProcedure(procedure!, {
          ctx: contextFor(user),
          path,
          type: procedure!._def.type,
          getRawInput: async () => input(),
        }),
      );
      expect(ours).toEqual(theirs);
      expect('data' in ours ? 'data' : ours.error.code).toBe(expected);
    });
  }

  it('passes on the ctx and input a middleware gives to next, and turns a thrown error into the same TRPCError', async () => {
    const testRouter = router({
      widened: publicProcedure
        .use(({ next }) => next({ ctx: { extra: 'from middleware' } }))
        .input(v.object({ n: v.number() }))
        .query(({ ctx, input }) => `${ctx.extra} ${input.n} ${ctx.ip}`),
      failing: publicProcedure.query(() => {
        throw new Error('plain failure');
      }),
    });
    const procedures = testRouter._def.procedures as unknown as Record<string, AnyProcedure>;
    const caller = createCallerFactory(testRouter)(contextFor(null));
    for (const [path, input, call] of [
      ['widened', { n: 7 }, () => caller.widened({ n: 7 })],
      ['widened', { n: 'x' }, () => caller.widened({ n: 'x' as never })],
      ['failing', undefined, () => caller.failing()],
    ] as const) {
      const ours = await outcome(() =>
        invokeProcedure(procedures[path]!, {
          ctx: contextFor(null),
          path,
          type: 'query',
          getRawInput: async () => input,
        }),
      );
      expect(ours, path).toEqual(await outcome(call));
    }
    expect(await outcome(() => caller.widened({ n: 7 }))).toEqual({ data: 'from middleware 7 127.0.0.1' });
  });

  it("keeps a real request's address and cookie jar when a middleware passes a ctx on, both ways", async () => {
    // tRPC and our loop both spread the ctx into a plain object at `next({ ctx })`: only own properties survive.
    const testRouter = router({
      signIn: publicProcedure
        .use(({ next }) => next({ ctx: { extra: 'from middleware' } }))
        .query(({ ctx }) => {
          ctx.sessionCookie.set('token-from-procedure', ctx.clock.now() + 60_000);
          return { ip: ctx.ip, extra: ctx.extra, userAgent: ctx.userAgent };
        }),
    });
    const procedure = (testRouter._def.procedures as unknown as Record<string, AnyProcedure>).signIn!;
    const server = Fastify();
    await server.register(fastifyCookie);
    server.decorate('deps', t.deps);
    server.decorateRequest('auth', null);
    server.get('/ours', (req, reply) =>
      invokeProcedure(procedure, {
        ctx: contextOf(req, reply),
        path: 'signIn',
        type: 'query',
        getRawInput: async () => undefined,
      }),
    );
    server.get('/theirs', (req, reply) => createCallerFactory(testRouter)(contextOf(req, reply)).signIn());
    try {
      for (const url of ['/ours', '/theirs']) {
        const res = await server.inject({ url, headers: { 'user-agent': 'test-agent' } });
        expect(res.json(), url).toEqual({ ip: '127.0.0.1', extra: 'from middleware', userAgent: 'test-agent' });
        expect(res.cookies.find((c) => c.name === 'session')?.value, url).toBe('token-from-procedure');
      }
    } finally {
      await server.close();
    }
  });
});
