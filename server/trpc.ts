/**
 * tRPC's foundation: the request context, the error formatter (every error carries the app's code, field errors and
 * message in `data.app`: docs/api.md, Answers and errors), the base procedures, one per access level of
 * server/permissions.ts, and the declaration of an /api path (decision 036) that a procedure carries in its meta.
 */
import { initTRPC } from '@trpc/server';
import { ErrorCode, type ErrorBody } from '#shared/errors.ts';
import type { SessionUser, ValidSession } from './auth/sessions.ts';
import { AppError, toAppError } from './errors.ts';
import { mayAccess, type Access } from './permissions.ts';
import type { ServiceContext } from './services/context.ts';
import type { SnapshotStore, TreeHistoryStore } from './services/tree/index.ts';
import type { TreeEventFeed } from './http/tree-events.ts';
import type { RestShape } from './rest/shapes.ts';

/** Long-lived things built once by buildApp. */
export interface AppDeps extends ServiceContext {
  snapshots: SnapshotStore;
  histories: TreeHistoryStore;
  /** Live trees' event streams (absent where a caller builds deps without HTTP). */
  treeEvents?: TreeEventFeed;
}

/** How a procedure sets or clears the session cookie without knowing about HTTP. */
export interface SessionCookieJar {
  set: (token: string, expiresAt: number) => void;
  clear: () => void;
}

/** What a procedure sees: the app's dependencies plus who is asking. */
export interface RequestContext extends AppDeps {
  user: SessionUser | null;
  session: ValidSession | null;
  ip: string;
  /** The request's User-Agent, when known: with the IP it keys a guest's art views (hashed). */
  userAgent?: string;
  sessionCookie: SessionCookieJar;
}

/** A JSON value, as an example answer is written. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** Who may call an /api path (docs/api.md, Who may call): the access level, and the checks its service adds. */
export type RestWho = 'everyone' | 'signed-in' | 'owner' | 'owner or admin' | 'signed-in, not the author';

/**
 * An /api path, declared once (decision 036): what the adapter registers, what docs/api.md shows (written from these by
 * `npm run docs:api`) and what the tests walk.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's pattern, `/api/cell/:cellToken/art`; docs/api.md writes it `/api/cell/{cellToken}/art`. */
  path: `/api/${string}`;
  who: RestWho;
  /** What it does, a line of docs/api.md's table (Markdown). */
  does: string;
  /** One answer as the server gives it, envelope included; held against the live answer by api-examples.test.ts. */
  example: Json;
}

/**
 * The /api path of a procedure, in its meta: the adapter's loop registers it (server/rest/adapter.ts). The input is the
 * query (GET) or the JSON body, with the path's parameters on top; the answer is the procedure's, in snake_case.
 */
export interface ProcedureRestRoute extends RestRoute {
  /** Path parameters whose input field has another name: `{ reserveId: 'reminderToken' }`. */
  params?: Readonly<Record<string, string>>;
  /** The documented shape, where it differs from the procedure's answer (server/rest/shapes.ts, decision 028). */
  shape?: RestShape;
}

/** A route the REST layer writes itself (multipart, bytes, a stream, two procedures): declared all the same. */
export interface HandWrittenRoute extends RestRoute {
  /** What it calls, for docs/api.md's last column (Markdown): a procedure, a service or `(plain route)`. */
  via: string;
}

export interface ProcedureMeta {
  /** Set by the base procedure (publicProcedure, userProcedure, adminProcedure), never by a router. */
  access?: Access;
  /** The procedure's /api path, when it has one: `.meta({ rest: { method, path, who, does, example } })`. */
  rest?: ProcedureRestRoute;
}

const t = initTRPC
  .context<RequestContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const app = toAppError(error);
      const body: ErrorBody = app.toBody();
      return {
        ...shape,
        message: body.message ?? shape.message,
        data: { code: shape.data.code, httpStatus: app.status, path: shape.data.path, app: body },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** A failed result whose cause is a service's AppError becomes a TRPCError with the matching code (and HTTP status). */
function settled<R extends { ok: true } | { ok: false; error: { cause?: unknown } }>(result: R): R {
  if (!result.ok && result.error.cause instanceof AppError) throw result.error.cause.toTRPC();
  return result;
}

/**
 * One middleware per access level (each middleware costs tRPC a few object copies per call): refuses a caller the
 * level does not admit and settles the result. The signed-in levels hand the checked user on, so their resolvers see
 * `ctx.user` as a SessionUser, never null.
 */
export const publicProcedure = t.procedure.meta({ access: 'public' }).use(async ({ next }) => settled(await next()));

function signedInProcedure(access: Exclude<Access, 'public'>) {
  return t.procedure.meta({ access }).use(async ({ ctx, next }) => {
    const { user } = ctx;
    if (!user || !mayAccess(user, access)) {
      throw (user ? new AppError(ErrorCode.Forbidden) : new AppError(ErrorCode.Unauthenticated)).toTRPC();
    }
    return settled(await next({ ctx: { user } }));
  });
}

export const userProcedure = signedInProcedure('user');
export const adminProcedure = signedInProcedure('admin');
