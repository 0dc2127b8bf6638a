import type { TContext } from '../context';
import type { TStoredAnswersDeclaration } from '../infra/cache/stored-answers';

/**
 * How a procedure's successful answer may be cached: declared once, in the procedure's
 * `meta.http`, and applied by `applyHttpCaching` (a middleware of every base procedure, server/trpc.ts)
 * for both surfaces. Services return domain data only; nothing below the router sets a header.
 *
 * Functions receive the procedure's validated output (`TOutput`: annotate the parameter) and the
 * service clock.
 */
// biome-ignore lint/suspicious/noExplicitAny: tRPC's meta is one type for every procedure, so its default must take any procedure's output (a procedure's own meta is checked through httpCaching<T>).
export interface THttpCaching<TOutput = any> {
  /**
   * Cache-Control of a successful answer, or a function of it; `undefined` leaves the surface's
   * default (REST: `no-cache` on GET, `private, no-cache` with a token, `no-store` on writes).
   */
  cacheControl?: string | ((output: TOutput, now: Date) => string | undefined);
  /**
   * A weak ETag of the answer, where the body's own hash would be wrong (a body carrying a counter
   * that must not defeat revalidation). Without it REST hashes the envelope.
   */
  etag?: (output: TOutput) => string;
  /** Its anonymous answers are stored and replayed: server/infra/cache/stored-answers.ts says how. */
  stored?: TStoredAnswersDeclaration<TOutput>;
}

/** Declares a procedure's caching with its output type checked: `meta({ openapi, http: httpCaching<TWarState>({...}) })`. */
export function httpCaching<TOutput>(caching: THttpCaching<TOutput>): THttpCaching<TOutput> {
  return caching;
}

/** Writes what `caching` declares of `output` into the call's response headers and replay flag. */
export function applyHttpCaching(caching: THttpCaching, output: unknown, ctx: TContext): void {
  const cacheControl =
    typeof caching.cacheControl === 'function' ? caching.cacheControl(output, ctx.deps.now()) : caching.cacheControl;
  if (cacheControl !== undefined) ctx.responseHeaders['cache-control'] = cacheControl;
  if (caching.etag) ctx.responseHeaders.etag = caching.etag(output);
  if (caching.stored?.replayable && !caching.stored.replayable(output)) ctx.replayable = false;
}

/** REST's Cache-Control when the procedure declares none: reads revalidate (privately with a token), writes are never stored. */
export function defaultCacheControl(method: string, hasToken: boolean): string {
  if (method !== 'GET') return 'no-store';
  return hasToken ? 'private, no-cache' : 'no-cache';
}
