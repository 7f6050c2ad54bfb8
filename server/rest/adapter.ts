/**
 * The REST adapter's mechanism (DESIGN.md §7): every /api answer is `{"r": …}`; a failure's r is the ErrorBody with
 * the same code tRPC would give. Routes are thin calls of the tRPC procedures through a caller built from the
 * request, so the two front doors never disagree.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { AppError, toAppError } from '../errors.ts';
import { contextOf } from '../http/request-context.ts';
import { createCaller } from '../root.ts';

export interface Envelope<T> {
  r: T;
}

export function ok<T>(payload: T): Envelope<T> {
  return { r: payload };
}

/** The typed procedures, called as the requesting user. */
export function callerFor(req: FastifyRequest, reply: FastifyReply) {
  return createCaller(contextOf(req, reply));
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

/** Error and not-found handlers for the /api scope: always the envelope, never a stack trace. */
export function useRestEnvelope(api: FastifyInstance): void {
  api.setErrorHandler((error: FastifyError, req, reply) => {
    const app = fromFastifyError(error) ?? toAppError(error);
    if (app.status >= 500) req.log.error({ err: error }, 'request failed');
    return reply.code(app.status).send(ok(app.toBody()));
  });
  api.setNotFoundHandler((_req, reply) => {
    const app = new AppError(ErrorCode.NotFound, 'No such API path.');
    return reply.code(404).send(ok(app.toBody()));
  });
}

/**
 * Fastify answers a malformed escape or an over-long path parameter before any route or hook runs; this keeps those
 * answers in the envelope on /api (and plain elsewhere) instead of Fastify's own error body.
 */
export function frameworkErrors(_error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const app = new AppError(ErrorCode.BadRequest, 'The request could not be read.');
  if (req.url.startsWith('/api/')) reply.code(app.status).send(ok(app.toBody()));
  else reply.code(app.status).type('text/plain; charset=utf-8').send('Bad request');
}
