/**
 * tRPC over Fastify at /trpc. GET queries take a short path (decision 017): the procedures are called directly and
 * their answers written as tRPC's adapter writes them (body, status, error shape, onError). Anything else, or unusual
 * (an unknown path, a mutation, non-JSON input, a streaming Accept), goes through @trpc/server's Fastify adapter.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import {
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  TRPCError,
  type AnyProcedure,
  type AnyRouter,
} from '@trpc/server/unstable-core-do-not-import';
import { TRPC_MAX_BATCH } from '#shared/constants.ts';
import { jsonTextOf } from '../raw-json.ts';
import { invokeProcedure } from './invoke-procedure.ts';

export interface TrpcRouteOptions<TContext> {
  router: AnyRouter;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => TContext | Promise<TContext>;
  onError?: (opts: {
    error: ReturnType<typeof getTRPCErrorFromUnknown>;
    path: string | undefined;
    type: string;
    input: unknown;
    ctx: TContext | undefined;
    req: FastifyRequest;
  }) => void;
}

type Params = { Params: { path: string }; Querystring: Record<string, string | undefined> };

/** What a GET asks for, when it is plain enough for the short path; null sends it to the adapter. */
function plainQueries(
  router: AnyRouter,
  req: FastifyRequest<Params>,
): { paths: string[]; procedures: AnyProcedure[]; inputs: unknown[]; batch: boolean } | null {
  const contentType = req.headers['content-type'];
  if (contentType !== undefined && !contentType.startsWith('application/json')) return null;
  if (req.headers['trpc-accept'] !== undefined || req.headers.accept?.includes('application/jsonl')) return null;
  // A repeated parameter arrives here as a list, where tRPC would read its first value: leave those to tRPC.
  if (Array.isArray(req.query.batch) || Array.isArray(req.query.input)) return null;
  const batch = req.query.batch === '1';
  let paths: string[];
  let raw: unknown;
  try {
    const path = decodeURIComponent(req.params.path);
    paths = batch ? path.split(',') : [path];
    // tRPC's adapter refuses an oversized batch (400) in its own error shape.
    if (paths.length > TRPC_MAX_BATCH) return null;
    raw = req.query.input ? JSON.parse(req.query.input) : undefined;
  } catch {
    return null;
  }
  const procedures: AnyProcedure[] = [];
  for (const path of paths) {
    const procedure = (router._def.procedures as Record<string, AnyProcedure | undefined>)[path];
    if (!procedure || procedure._def.type !== 'query') return null;
    procedures.push(procedure);
  }
  if (batch && raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) return null;
  const transformer = router._def._config.transformer.input;
  const inputs = paths.map((_, index): unknown => {
    const input = batch ? (raw as Record<number, unknown> | undefined)?.[index] : raw;
    return input === undefined ? undefined : (transformer.deserialize(input) as unknown);
  });
  return { paths, procedures, inputs, batch };
}

const RESULT_OPEN = Buffer.from('{"result":{"data":');
const RESULT_CLOSE = Buffer.from('}}');

/**
 * The answers as tRPC writes them; an answer whose JSON text the server already holds (raw-json.ts: a tree's
 * snapshot or history) is written from those bytes, not stringified again. No data transformer is configured, so
 * tRPC's own text of `{result: {data}}` is exactly these bytes around the data's text.
 */
function encodeAnswers(answers: object[], batch: boolean, stringify: (answer: object) => string): Buffer {
  const parts = answers.map((answer) => {
    const text = 'result' in answer ? jsonTextOf((answer.result as { data: unknown }).data) : undefined;
    return text ? Buffer.concat([RESULT_OPEN, text, RESULT_CLOSE]) : Buffer.from(stringify(answer));
  });
  if (!batch) return parts[0]!;
  const joined: Buffer[] = [Buffer.from('[')];
  parts.forEach((part, i) => joined.push(...(i > 0 ? [Buffer.from(','), part] : [part])));
  joined.push(Buffer.from(']'));
  return Buffer.concat(joined);
}

export function registerTrpcRoutes<TContext>(scope: FastifyInstance, options: TrpcRouteOptions<TContext>): void {
  const { router, createContext, onError } = options;
  const config = router._def._config;

  // As @trpc/server's plugin does: bodies reach tRPC unparsed, which reads them itself.
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // No multipart parser: see refuseMultipart.

  const adapter = (req: FastifyRequest<Params>, reply: FastifyReply) =>
    fastifyRequestHandler({
      router,
      createContext,
      onError: onError as never,
      req,
      res: reply,
      path: req.params.path,
      maxBatchSize: TRPC_MAX_BATCH,
    });

  scope.get<Params>('/:path', { exposeHeadRoute: false }, async (req, reply) => {
    const plain = plainQueries(router, req);
    if (!plain) return adapter(req, reply);
    const ctx = await createContext({ req, res: reply });
    const answers = await Promise.all(
      plain.procedures.map(async (procedure, index) => {
        const path = plain.paths[index]!;
        const input = plain.inputs[index];
        try {
          const data: unknown = await invokeProcedure(procedure, {
            path,
            getRawInput: async () => input,
            ctx: ctx as object,
            type: 'query',
            batchIndex: index,
          });
          return { result: { data } };
        } catch (cause) {
          const error = getTRPCErrorFromUnknown(cause);
          onError?.({ error, path, type: 'query', input, ctx, req });
          return { error: getErrorShape({ config, ctx, error, input, path, type: 'query' }) as unknown };
        }
      }),
    );
    const body = plain.batch ? answers : answers[0]!;
    return reply
      .code(getHTTPStatusCode(body as never))
      .header('vary', 'trpc-accept, accept')
      .header('content-type', 'application/json')
      .send(
        encodeAnswers(answers, plain.batch, (answer) =>
          JSON.stringify(transformTRPCResponse(config as Parameters<typeof transformTRPCResponse>[0], answer as never)),
        ),
      );
  });
  scope.route<Params>({
    method: ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/:path',
    onRequest: (req, reply) => refuseMultipart(config, req, reply),
    handler: adapter,
  });
}

/**
 * No procedure takes a multipart body: the uploads are REST routes that ask who is sending before they read it
 * (decision 039). tRPC's adapter would read one whole, with no limit, before a procedure looked at its caller, so it
 * is refused before a byte of it is read, in tRPC's error shape (415, as for any body that is not JSON), and the
 * connection is closed rather than left waiting for the rest.
 */
async function refuseMultipart(
  config: AnyRouter['_def']['_config'],
  req: FastifyRequest<Params>,
  reply: FastifyReply,
): Promise<void> {
  if (!/^\s*multipart\//i.test(req.headers['content-type'] ?? '')) return;
  const error = new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'A multipart body.' });
  const path = req.params.path;
  const shape = getErrorShape({ config, ctx: undefined, error, input: undefined, path, type: 'unknown' }) as unknown;
  const body: unknown = transformTRPCResponse(
    config as Parameters<typeof transformTRPCResponse>[0],
    { error: shape } as never,
  );
  await reply
    .code(getHTTPStatusCode(body as never))
    .header('connection', 'close')
    .header('content-type', 'application/json')
    .send(JSON.stringify(body));
}
