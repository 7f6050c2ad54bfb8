/**
 * Calling a tRPC procedure from our own HTTP paths (the REST adapter and the short path for tRPC GETs): the
 * procedure's middlewares in order, then its resolver, exactly as @trpc/server's own caller runs them (each level
 * sees ctx, type, path, input, getRawInput, meta, signal and batchIndex, and `next` passes a changed ctx, input or
 * raw input on; a thrown error becomes the failed result of that level; a failed or missing final result is thrown).
 *
 * Why not the procedure function itself: tRPC 11 copies its options object with a bundled object-spread helper at
 * every level, twice, which on a small read cost more than the read (about 12 µs of a 90 µs request, issue 10).
 * The middlewares and resolvers are tRPC's, unchanged; only the loop between them is ours.
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

/** The procedure's answer, or its error thrown (a TRPCError, as tRPC's caller throws it). */
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
