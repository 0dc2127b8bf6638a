import { getTRPCErrorFromUnknown, TRPCError, type AnyProcedure } from '@trpc/server';

/** A tRPC procedure called as its caller does (ctx, lazy raw input, path, type). */
export type TProcedureCall = (options: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: unknown;
  type: 'query' | 'mutation';
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

/** What a tRPC middleware returns: its `next()` result, or the error it threw. */
type TMiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type TMiddleware = (options: Record<string, unknown>) => Promise<TMiddlewareResult>;
type TNextOptions =
  | { ctx?: Record<string, unknown>; input?: unknown; getRawInput?: () => Promise<unknown> }
  | undefined;

/** The marker tRPC (11.x) stamps on middleware results; `next()` results must carry it. */
const MIDDLEWARE_MARKER = 'middlewareMarker';

/**
 * Runs a procedure's own middleware chain (its input and output validators, our auth middlewares,
 * its resolver) exactly as tRPC's `callRecursive` does (`@trpc/server` 11.x,
 * unstable-core-do-not-import), but with native object spreads. tRPC's published build compiles each
 * spread into a Babel helper (`_objectSpread2`: Object.keys, getOwnPropertyDescriptor and
 * defineProperty per key), two to three per middleware: 10 to 30 µs of an uncached item call in
 * process (bench/README.md). Only the REST surface calls procedures this way; `/trpc` goes through
 * tRPC's adapter. test/platform/performance.test.ts holds both to the same data, ctx and errors.
 */
export function procedureCall(procedure: AnyProcedure): TProcedureCall {
  const definition = procedure._def as unknown as { middlewares: TMiddleware[]; meta: unknown };
  const { middlewares, meta } = definition;

  async function callFrom(index: number, options: Record<string, unknown>): Promise<TMiddlewareResult> {
    try {
      return await middlewares[index]!({
        ...options,
        meta,
        input: options.input,
        next: (nextOptions: TNextOptions) =>
          callFrom(index + 1, {
            ...options,
            ctx: nextOptions?.ctx ? { ...(options.ctx as Record<string, unknown>), ...nextOptions.ctx } : options.ctx,
            input: nextOptions && 'input' in nextOptions ? nextOptions.input : options.input,
            getRawInput: nextOptions?.getRawInput ?? options.getRawInput,
          }),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: MIDDLEWARE_MARKER } as TMiddlewareResult;
    }
  }

  return async (options) => {
    const result = await callFrom(0, options);
    if (!result) {
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'No result from middlewares - did you forget to `return next()`?',
      });
    }
    if (!result.ok) throw result.error;
    return result.data;
  };
}
