/**
 * The REST adapter's mechanism (decision 003): every /api answer is `{"r": …}`; a failure's r is the ErrorBody with the
 * same code tRPC would give; a success's r is the payload with snake_case keys (`answer`, decision 028). A procedure
 * that declares an /api path in its meta is registered here, by one loop (decision 036), so the two front doors never
 * disagree; the few routes that do more build a caller from the request (`callerFor`).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyProcedure } from '@trpc/server/unstable-core-do-not-import';
import { ErrorCode } from '#shared/errors.ts';
import { snakeKeys, type Snaked } from '#shared/key-case.ts';
import { AppError, isDatabaseBusy, toAppError } from '../errors.ts';
import { invokeProcedure } from '../http/invoke-procedure.ts';
import { contextOf } from '../http/request-context.ts';
import { appRouter, type createCaller } from '../root.ts';
import type { ProcedureMeta, ProcedureRestRoute, RequestContext, RestRoute } from '../trpc.ts';
import { REST_SHAPES } from './shapes.ts';

export interface Envelope<T> {
  r: T;
}

/** The envelope as it is: for error bodies, and for bytes already built in the documented shape. */
export function ok<T>(payload: T): Envelope<T> {
  return { r: payload };
}

/** A REST route's success: the procedure's answer with every key in snake_case, in the envelope. */
export function answer<T>(payload: T): Envelope<Snaked<T>> {
  return { r: snakeKeys(payload) };
}

type Caller = ReturnType<typeof createCaller>;

/**
 * The caller's shape built once from the router, so that a request allocates no proxy or closure for it: one class
 * per namespace (`cell`, `auth`…) whose methods are the procedures, and a caller class whose getters give them.
 */
function callerClass(procedures: Record<string, AnyProcedure>): new (ctx: RequestContext) => Caller {
  class RequestCaller {
    constructor(readonly ctx: RequestContext) {}
  }
  const namespaces = new Map<string, { prototype: object }>();
  for (const [path, procedure] of Object.entries(procedures)) {
    const [space, name] = path.split('.') as [string, string];
    let namespace = namespaces.get(space);
    if (!namespace) {
      const Namespace = class {
        constructor(readonly ctx: RequestContext) {}
      };
      namespaces.set(space, Namespace);
      Object.defineProperty(RequestCaller.prototype, space, {
        get(this: RequestCaller) {
          return new Namespace(this.ctx);
        },
      });
      namespace = Namespace;
    }
    Object.defineProperty(namespace.prototype, name, {
      value: function call(this: { ctx: RequestContext }, input: unknown) {
        return invokeProcedure(procedure, {
          ctx: this.ctx,
          path,
          type: procedure._def.type,
          getRawInput: () => Promise.resolve(input),
        });
      },
    });
  }
  return RequestCaller as unknown as new (ctx: RequestContext) => Caller;
}

const PROCEDURES = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
const RequestCaller = callerClass(PROCEDURES);

/**
 * The typed procedures, called as the requesting user: `callerFor(req, reply).cell.get(input)` runs what tRPC's
 * createCaller would, through invokeProcedure (cheaper per call, same middlewares, resolvers and errors).
 */
export function callerFor(req: FastifyRequest, reply: FastifyReply): Caller {
  return new RequestCaller(contextOf(req, reply));
}

/** A procedure's /api path, with the procedure's dotted name (`art.details`). */
export interface ProcedureRoute {
  procedure: string;
  rest: ProcedureRestRoute;
}

/** Every procedure that declares an /api path in its meta, in the router's order. */
export function procedureRoutes(): ProcedureRoute[] {
  return Object.entries(PROCEDURES).flatMap(([procedure, { _def }]) => {
    const rest = (_def.meta as ProcedureMeta | undefined)?.rest;
    return rest ? [{ procedure, rest }] : [];
  });
}

/** A declared route's url inside the /api scope. */
export function apiUrl(route: RestRoute): string {
  return route.path.slice('/api'.length);
}

type Fields = Record<string, unknown>;

/** An object's own fields, or none: the procedure validates each, so a missing or non-object body is simply empty. */
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/**
 * Registers every declared procedure route: the query (GET) or the JSON body is the input, the path's parameters (named
 * as the input's fields, or renamed by the declaration) on top; the answer is the procedure's in its REST shape.
 */
export function registerProcedureRoutes(api: FastifyInstance): void {
  for (const { procedure: path, rest } of procedureRoutes()) {
    const procedure = PROCEDURES[path]!;
    const type = procedure._def.type;
    const renamed = Object.entries(rest.params ?? {});
    const shape = rest.shape ? (REST_SHAPES[rest.shape] as (result: never) => unknown) : null;
    api.route<{ Params: Record<string, string> }>({
      method: rest.method,
      url: apiUrl(rest),
      async handler(req, reply) {
        const params: Fields = { ...req.params };
        for (const [param, field] of renamed) {
          params[field] = params[param];
          delete params[param];
        }
        const input = { ...fieldsOf(rest.method === 'GET' ? req.query : req.body), ...params };
        const result = await invokeProcedure(procedure, {
          ctx: contextOf(req, reply),
          path,
          type,
          getRawInput: () => Promise.resolve(input),
        });
        return answer(shape ? shape(result as never) : result);
      },
    });
  }
}

function fromFastifyError(error: FastifyError): AppError | null {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return new AppError(ErrorCode.PayloadTooLarge, 'The request is too large.');
  }
  if (error.validation || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
    return new AppError(ErrorCode.BadRequest, 'The request could not be read.');
  }
  return null;
}

/**
 * Error and not-found handlers for the /api scope: always the envelope, never a stack trace. A refusal is true of its
 * moment only, so no cache keeps it, whatever the route had said of its answer (decision 033).
 */
export function useRestEnvelope(api: FastifyInstance): void {
  api.setErrorHandler((error: FastifyError, req, reply) => {
    const app = fromFastifyError(error) ?? toAppError(error);
    // A refusal the app chose to make (busy, with its wait) is no failure to log; a database that gave up is.
    if (app.status >= 500 && (app.code !== ErrorCode.Busy || isDatabaseBusy(error))) {
      req.log.error({ err: error }, 'request failed');
    }
    reply.header('cache-control', 'no-store');
    if (app.retryAfter !== undefined) reply.header('retry-after', String(app.retryAfter));
    return reply.code(app.status).send(ok(app.toBody()));
  });
  api.setNotFoundHandler((_req, reply) => {
    const app = new AppError(ErrorCode.NotFound, 'No such API path.');
    return reply.code(404).header('cache-control', 'no-store').send(ok(app.toBody()));
  });
}

/**
 * Fastify answers a malformed escape or an over-long path parameter before any route or hook runs; this keeps those
 * answers in the envelope on /api (and plain elsewhere) instead of Fastify's own error body.
 */
export function frameworkErrors(_error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const app = new AppError(ErrorCode.BadRequest, 'The request could not be read.');
  if (req.url.startsWith('/api/')) reply.code(app.status).header('cache-control', 'no-store').send(ok(app.toBody()));
  else reply.code(app.status).type('text/plain; charset=utf-8').send('Bad request');
}
