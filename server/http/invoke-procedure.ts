/**
 * Calling a tRPC procedure from our own HTTP paths (the REST adapter, the short path for tRPC GETs) through a lean loop
 * (decision 021): tRPC's own middlewares and resolver, unchanged and in its order, without the options copies of its
 * caller, which cost more than a small read (about 12 µs of a 90 µs request). Only the loop between them is ours.
 */
import {
  TRPCError,
  getTRPCErrorFromUnknown,
  middlewareMarker,
  type AnyProcedure,
  type ProcedureType,
} from '@trpc/server/unstable-core-do-not-import';

export interface InvokeOptions {
  ctx: object;
  path: string;
  type: ProcedureType;
  getRawInput: () => Promise<unknown>;
  signal?: AbortSignal;
  batchIndex?: number;
}

interface LevelOptions extends InvokeOptions {
  input: unknown;
}

type LevelResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type Middleware = (
  opts: LevelOptions & { meta: unknown; next: (opts?: NextOptions) => Promise<LevelResult> },
) => Promise<LevelResult>;

/**
 * One level, as @trpc/server's caller runs it: the middleware sees ctx, type, path, input, getRawInput, meta, signal
 * and batchIndex, and `next` passes a changed ctx, input or raw input on; a thrown error becomes the level's failed
 * result.
 */
async function callLevel(
  index: number,
  def: AnyProcedure['_def'] & { middlewares: Middleware[] },
  opts: LevelOptions,
): Promise<LevelResult> {
  try {
    const middleware = def.middlewares[index]!;
    return await middleware({
      ctx: opts.ctx,
      path: opts.path,
      type: opts.type,
      getRawInput: opts.getRawInput,
      signal: opts.signal,
      batchIndex: opts.batchIndex,
      input: opts.input,
      meta: def.meta,
      next(next) {
        return callLevel(index + 1, def, {
          ctx: next?.ctx ? { ...opts.ctx, ...next.ctx } : opts.ctx,
          path: opts.path,
          type: opts.type,
          getRawInput: next?.getRawInput ?? opts.getRawInput,
          signal: opts.signal,
          batchIndex: opts.batchIndex,
          input: next && 'input' in next ? next.input : opts.input,
        });
      },
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker } as LevelResult;
  }
}

/** The procedure's answer, or its error thrown (a TRPCError, as tRPC's caller throws a failed or missing result). */
export async function invokeProcedure(procedure: AnyProcedure, opts: InvokeOptions): Promise<unknown> {
  const { ctx, path, type, getRawInput, signal, batchIndex } = opts;
  const result = await callLevel(0, procedure._def as never, {
    ctx,
    path,
    type,
    getRawInput,
    signal,
    batchIndex,
    input: undefined,
  });
  if (!result)
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'No result from middlewares - did you forget to `return next()`?',
    });
  if (!result.ok) throw result.error;
  return result.data;
}
