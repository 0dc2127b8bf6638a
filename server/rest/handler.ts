import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TContext, TRequestIdentity } from '../context';
import { AppError, toPublicError } from '../errors';
import { etagListMatches, weakEtag } from '../etag';
import { queryToObject, readJsonObjectBody } from './body';
import { envelopeBody, sendJson } from './envelope';
import type { TCaches } from '../infra/cache';
import { StoredAnswers, type TStoredCounters } from '../infra/cache/stored-answers';
import { defaultCacheControl } from '../http/caching';
import { responseHeadOf } from '../http/response-head';
import { routePathOf, type RouteTable, type TRestRoute } from './routes';
import type { TStreamedAnswer } from '../schemas';
import { sendStream } from './stream';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface TRestHandlerOptions {
  /** The REST route table of the router (RouteTable.fromRouter), built once and shared with the route labeler. */
  routes: RouteTable;
  createContext: (req: IncomingMessage, identity: TRequestIdentity, rawBody?: Buffer) => Promise<TContext>;
  /** Called with every error that maps to a 5xx, for logging. */
  onServerError: (error: unknown, info: { requestId: string; method: string; path: string }) => void;
  /** Where routes with `meta.http.stored` keep their anonymous answers. */
  caches: TCaches;
  /** The service clock, in ms. */
  nowMs: () => number;
  /** The live counters stored answers may carry (the item's views). */
  counters: TStoredCounters;
}

/** `search` is the raw query string without `?` (see splitRequestTarget). */
export type TRestHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  search: string,
  identity: TRequestIdentity,
) => Promise<void>;

function decodeParams(params: Record<string, string>): Record<string, string> {
  // Keyed by the route's parameter names, but holding the client's values: no prototype either way.
  const decoded: Record<string, string> = Object.create(null);
  for (const name in params) {
    const value = params[name]!;
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new AppError('BAD_REQUEST', `Malformed path parameter "${name}"`);
    }
  }
  return decoded;
}

/**
 * The `If-Match` header as the input's `ifMatch` field, which the procedure checks (routes.ts,
 * takesIfMatch): one code path for both surfaces. The same precondition given twice, differently, is
 * a 400 rather than a guess at which one the client meant.
 */
function withIfMatch(input: Record<string, unknown>, header: string): Record<string, unknown> {
  if (input.ifMatch !== undefined && input.ifMatch !== header) {
    throw new AppError('BAD_REQUEST', 'Invalid input: ifMatch: differs from the If-Match header; send one of them', {
      issues: [{ path: 'ifMatch', message: 'differs from the If-Match header; send one of them' }],
    });
  }
  return { ...input, ifMatch: header };
}

/**
 * The REST surface: every procedure with `meta.openapi`, at its contract path, answering in the
 * envelope. Built once; each request costs a route lookup, a context and one procedure call, or
 * only the lookup when a stored answer serves it (server/infra/cache/stored-answers.ts).
 */
export function createRestHandler(options: TRestHandlerOptions): TRestHandler {
  const { routes } = options;
  const storedAnswers = new StoredAnswers(options.caches.lru, options.nowMs, options.counters);

  return async (req, res, rawPath, search, identity) => {
    const { requestId } = identity;
    const path = routePathOf(rawPath);
    const method = (req.method ?? 'GET').toUpperCase();
    let ctx: TContext | undefined;
    try {
      const lookupMethod = method === 'HEAD' ? 'GET' : method;
      const match = routes.matchRequest(req, lookupMethod, path);
      if (match.kind === 'not-found') throw new AppError('NOT_FOUND', `No route for ${method} /api${path}`);
      if (match.kind === 'wrong-method') {
        responseHeadOf(res).set('allow', match.allowed.join(', '));
        throw new AppError(
          'METHOD_NOT_SUPPORTED',
          `Method ${method} not allowed for /api${path}; use ${match.allowed.join(' or ')}`,
        );
      }
      const { route } = match;
      const cacheKey = storedAnswers.restKey(route.storedAnswers, route.method, req, path, search);
      const stored = cacheKey === null ? undefined : storedAnswers.read(cacheKey);
      if (stored) {
        responseHeadOf(res).set('age', stored.ageSeconds);
        sendSuccess(req, res, method, stored.body, stored.headers);
        return;
      }

      const body = BODY_METHODS.has(method) ? await readJsonObjectBody(req) : undefined;
      const source = BODY_METHODS.has(method)
        ? (body?.value ?? {})
        : search === ''
          ? {}
          : queryToObject(new URLSearchParams(search));
      let input = route.paramNames.length === 0 ? source : { ...source, ...decodeParams(match.params) };
      if (route.takesIfMatch && req.headers['if-match'] !== undefined)
        input = withIfMatch(input, req.headers['if-match']);

      ctx = await options.createContext(req, identity, body?.raw);
      // What a tRPC caller does for one call, without building its proxy chain on every request.
      const data: unknown = await route.procedure({
        path: route.procedurePath,
        getRawInput: async () => input,
        ctx,
        type: route.type,
        signal: undefined,
        batchIndex: 0,
      });

      if (route.streamed) {
        await sendStream(res, method, data as TStreamedAnswer, ctx.responseHeaders);
        return;
      }
      const raw = route.rawContentType === undefined ? undefined : rawBody(data, route);
      const responseBody = raw === undefined ? envelopeBody(200, 'success', data, route.topLevel) : raw.body;
      const headers: Record<string, string> = { ...ctx.responseHeaders, ...raw?.headers };
      if (route.method === 'GET') {
        headers['cache-control'] ??= defaultCacheControl(
          'GET',
          req.headers.authorization !== undefined || req.headers['x-access-token'] !== undefined,
        );
        // A procedure may set its own (weak) ETag when its body carries a counter that should not defeat revalidation.
        headers.etag ??= weakEtag(typeof responseBody === 'string' ? responseBody : responseBody.toString('base64'));
        if (cacheKey !== null && ctx.replayable && typeof responseBody === 'string')
          storedAnswers.write(cacheKey, responseBody, headers, route.storedAnswers, data);
      } else {
        headers['cache-control'] ??= defaultCacheControl(route.method, false);
      }
      sendSuccess(req, res, method, responseBody, headers);
    } catch (error) {
      sendError(res, error, requestId, ctx, () => options.onServerError(error, { requestId, method, path }));
    }
  };
}

/**
 * Headers of bytes a user uploaded (avatars), so that a browser never runs them: their sniffed type
 * only, no sniffing of its own, no scripts or subresources even when opened directly, shown inline.
 */
const UPLOADED_BYTES_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'content-disposition': 'inline',
} as const;

/**
 * The body of a `meta.rawResponse` route and its headers: its procedure's output, a string sent with
 * the declared Content-Type; or, when the declared type is a family such as `image/*`, bytes given as
 * `{ contentType, base64 }` (native tRPC answers that object), sent with their own type of that
 * family and UPLOADED_BYTES_HEADERS.
 */
function rawBody(data: unknown, route: TRestRoute): { body: string | Buffer; headers: Record<string, string> } {
  const declared = route.rawContentType!;
  if (declared.endsWith('/*')) {
    const { contentType, base64 } = (data ?? {}) as { contentType?: unknown; base64?: unknown };
    if (
      typeof contentType !== 'string' ||
      typeof base64 !== 'string' ||
      !contentType.startsWith(declared.slice(0, -1))
    ) {
      throw new Error(`${route.procedurePath} declares rawResponse ${declared} but returned no bytes of that type`);
    }
    return { body: Buffer.from(base64, 'base64'), headers: { ...UPLOADED_BYTES_HEADERS, 'content-type': contentType } };
  }
  if (typeof data !== 'string')
    throw new Error(`${route.procedurePath} declares rawResponse but returned ${typeof data}`);
  return { body: data, headers: { 'content-type': declared } };
}

/**
 * A 200 envelope, or a bodiless 304 (If-None-Match matches the ETag) or HEAD answer. A `content-type`
 * in `headers` (a rawResponse route) replaces the envelope's.
 */
function sendSuccess(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  if (headers.etag !== undefined && etagListMatches(req.headers['if-none-match'], headers.etag)) {
    const head = responseHeadOf(res);
    head.setAll(headers);
    head.send(res, 304);
    return;
  }
  if (method === 'HEAD') {
    const head = responseHeadOf(res);
    head.set('content-type', 'application/json; charset=utf-8');
    head.setAll(headers);
    head.send(res, 200);
    return;
  }
  sendJson(res, 200, body, headers);
}

/** Writes any error as an envelope with its mapped status. */
export function sendError(
  res: ServerResponse,
  error: unknown,
  requestId: string,
  ctx?: TContext,
  onServerError?: () => void,
): void {
  const described = toPublicError(error, requestId);
  if (described.status >= 500) onServerError?.();
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = { ...ctx?.responseHeaders, 'cache-control': 'no-store' };
  if (described.retryAfterSeconds !== undefined)
    headers['retry-after'] = Math.max(1, Math.ceil(described.retryAfterSeconds));
  if (described.status === 413) headers.connection = 'close';
  sendJson(res, described.status, envelopeBody(described.status, described.message, described.data), headers);
}
