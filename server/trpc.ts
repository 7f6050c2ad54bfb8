/**
 * tRPC's foundation: the request context, the error formatter (every error carries the app's code, field errors and
 * message in `data.app`: docs/api.md, Answers and errors) and the base procedures, one per access level of
 * server/permissions.ts.
 */
import { initTRPC } from '@trpc/server';
import { ErrorCode, type ErrorBody } from '#shared/errors.ts';
import type { SessionUser, ValidSession } from './auth/sessions.ts';
import { AppError, toAppError } from './errors.ts';
import { mayAccess, type Access } from './permissions.ts';
import type { ServiceContext } from './services/context.ts';
import type { SnapshotStore, TreeHistoryStore } from './services/tree/index.ts';
import type { TreeEventFeed } from './http/tree-events.ts';

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

export interface ProcedureMeta {
  access: Access;
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

/**
 * One middleware per access level (each middleware costs tRPC a few object copies per call): refuses a caller the
 * level does not admit, and turns a service's AppError into a TRPCError with the matching code (and so the right
 * HTTP status).
 */
function procedureFor(access: Access) {
  return t.procedure.meta({ access }).use(async ({ ctx, next }) => {
    if (!mayAccess(ctx.user, access)) {
      throw (ctx.user ? new AppError(ErrorCode.Forbidden) : new AppError(ErrorCode.Unauthenticated)).toTRPC();
    }
    const result = await next();
    if (!result.ok && result.error.cause instanceof AppError) throw result.error.cause.toTRPC();
    return result;
  });
}

export const publicProcedure = procedureFor('public');
export const userProcedure = procedureFor('user');
export const adminProcedure = procedureFor('admin');
