// The native tRPC surface, /trpc (createTrpcHandler says what it answers itself and what it leaves to
// tRPC's adapter). Its parts: calls.ts (the calls of a request), wire.ts (tRPC's wire format).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { TContext, TRequestIdentity } from '../context';
import { toPublicError } from '../errors';
import { SSE_PING_MS } from '../trpc';
import { BODY_LIMIT_BYTES, readBody } from '../rest/body';
import { sendJson } from '../rest/envelope';
import { responseHeadOf } from '../http/response-head';
import type { TCaches } from '../infra/cache';
import { StoredAnswers, type TStoredCounters } from '../infra/cache/stored-answers';
import { createCallParser, procedureEntries, type TCall } from './calls';
import { asBytes, CLOSE_BRACKET, COMMA, errorItem, JSON_HEADERS, OPEN_BRACKET, resultItem } from './wire';

export { trpcCallCount } from './calls';
export { sendTrpcError } from './wire';

/** One call's answer: its serialised response item, HTTP status and the headers it asked for. */
interface TAnswer {
  /** As computed, or as stored (bytes; with a counter, a string). */
  item: string | Buffer;
  status: number;
  headers: Record<string, string>;
  /** Set when it is a stored answer: its age, sent as `Age` when it is the request's only call. */
  ageSeconds?: number;
}

export interface TTrpcHandlerOptions {
  router: AnyRouter;
  createContext: (req: IncomingMessage, identity: TRequestIdentity) => Promise<TContext>;
  maxBatchSize: number;
  /** Where anonymous queries of procedures with `meta.http.stored` keep their answers. */
  caches: TCaches;
  nowMs: () => number;
  /** The live counters stored answers may carry (the item's views). */
  counters: TStoredCounters;
  onServerError: (error: unknown, info: Record<string, unknown>) => void;
}

export type TTrpcHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  search: string,
  identity: TRequestIdentity,
) => Promise<void>;

function isStreamRequest(req: IncomingMessage): boolean {
  const trpcAccept = req.headers['trpc-accept'];
  if (trpcAccept !== undefined) return trpcAccept === 'application/jsonl';
  return (req.headers.accept ?? '').split(',').some((type) => type.trim() === 'application/jsonl');
}

function isJsonBody(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * The native tRPC surface, `/trpc`: tRPC's wire protocol (superjson, batching, GET for queries and
 * POST for mutations, its error shape and statuses), answered without tRPC's Node adapter for the
 * requests a client sends: well-formed calls of existing procedures, single or batched. Each call runs
 * through the procedure's own middleware chain (procedure-call.ts, as on REST) with a context of its
 * own (its response headers and replayability are its own), and anonymous queries of procedures with
 * `meta.http.stored` are answered from stored items, as REST answers from stored responses. Inputs the
 * transformer refuses (a 400, transformer.ts) are answered here too, as the adapter answers them.
 *
 * Everything else (subscriptions over SSE for httpSubscriptionLink, streaming batches for httpBatchStreamLink, input that is not JSON, unknown procedures,
 * wrong methods or content types) goes to tRPC's adapter, which defines those answers; the adapter
 * is the reference the fast path is tested against (test/cross-cutting/trpc-surface-wire.test.ts).
 */
export function createTrpcHandler(options: TTrpcHandlerOptions): TTrpcHandler {
  const { router, maxBatchSize } = options;
  const config = router._def._config;
  const deserialize = (value: unknown) => config.transformer.input.deserialize(value);
  const stored = new StoredAnswers(options.caches.lru, options.nowMs, options.counters);

  const procedures = procedureEntries(router);
  /** Subscriptions (live.events) are tRPC's adapter's: it speaks the SSE httpSubscriptionLink reads. */
  const subscriptions = new Set(
    Object.entries(router._def.procedures as Record<string, AnyProcedure>)
      .filter(([, procedure]) => procedure._def.type === 'subscription')
      .map(([path]) => path),
  );
  const parseCalls = createCallParser({ procedures, maxBatchSize, deserialize, stored });

  async function answer(call: TCall, index: number, base: TContext): Promise<TAnswer> {
    if (call.cacheKey !== null) {
      const hit = stored.read(call.cacheKey);
      if (hit) return { item: hit.body, status: 200, headers: hit.headers, ageSeconds: hit.ageSeconds };
    }
    const ctx: TContext = { ...base, responseHeaders: {}, replayable: true };
    try {
      const data = await call.entry.call({
        path: call.path,
        getRawInput: async () => {
          if (call.inputError) throw call.inputError;
          return call.input;
        },
        ctx,
        type: call.entry.type,
        signal: undefined,
        batchIndex: index,
      });
      const item = resultItem(config, data);
      if (call.cacheKey !== null && ctx.replayable)
        stored.write(call.cacheKey, item, ctx.responseHeaders, call.entry.storedAnswers, data);
      return { item, status: 200, headers: ctx.responseHeaders };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const described = errorItem(router, error, ctx, { path: call.path, type: call.entry.type, input: call.input });
      if (described.status >= 500)
        options.onServerError(error, { requestId: ctx.requestId, path: call.path, surface: 'trpc' });
      return {
        item: described.item,
        status: described.status,
        headers: { ...ctx.responseHeaders, ...described.headers },
      };
    }
  }

  /** tRPC's adapter, for what the fast path leaves to it; `body` is what was already read of the request. */
  async function viaAdapter(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    identity: TRequestIdentity,
    body?: string,
  ) {
    if (body !== undefined) (req as IncomingMessage & { body?: string }).body = body;
    // The adapter writes through Node's API: it gets the headers gathered so far.
    responseHeadOf(res).applyTo(res);
    await nodeHTTPRequestHandler({
      router,
      req,
      res,
      path,
      maxBodySize: BODY_LIMIT_BYTES,
      maxBatchSize,
      createContext: () => options.createContext(req, identity),
      responseMeta: ({ ctx }) => ({ headers: (ctx as TContext | undefined)?.responseHeaders ?? {} }),
      onError: ({ error, path: procedurePath }) => {
        if (toPublicError(error, identity.requestId).status >= 500) {
          options.onServerError(error, { requestId: identity.requestId, path: procedurePath, surface: 'trpc' });
        }
      },
    });
  }

  return async (req, res, path, search, identity) => {
    const method = req.method;
    if (subscriptions.has(path)) {
      // A subscription's stream stays open: TCP keep-alive finds a peer that vanished without closing it.
      req.socket.setKeepAlive(true, SSE_PING_MS);
      return viaAdapter(req, res, path, identity);
    }
    if ((method !== 'GET' && method !== 'POST') || isStreamRequest(req)) return viaAdapter(req, res, path, identity);
    if (method === 'GET' ? req.headers['content-type'] !== undefined && !isJsonBody(req) : !isJsonBody(req)) {
      return viaAdapter(req, res, path, identity);
    }
    const params = new URLSearchParams(search);
    const isBatch = params.get('batch') === '1';
    const anonymous = req.headers.authorization === undefined && req.headers['x-access-token'] === undefined;
    if (method === 'GET' && !isBatch && anonymous) {
      // A stored answer of a single query is found by its raw input, before anything is parsed.
      const entry = procedures.get(path);
      const key =
        entry?.type === 'query' ? stored.trpcKey(entry.storedAnswers, path, params.get('input') || null) : null;
      const hit = key === null ? undefined : stored.read(key);
      if (hit) return sendJson(res, 200, hit.body, { ...JSON_HEADERS, ...hit.headers, age: String(hit.ageSeconds) });
    }
    const body = method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
    const calls = parseCalls(req, path, params, body);
    if (calls === null) return viaAdapter(req, res, path, identity, body);

    const base = await options.createContext(req, identity);
    if (!isBatch) {
      const only = await answer(calls[0]!, 0, base);
      const headers = { ...JSON_HEADERS, ...only.headers };
      return sendJson(
        res,
        only.status,
        only.item,
        only.ageSeconds === undefined ? headers : { ...headers, age: String(only.ageSeconds) },
      );
    }
    const answers = await Promise.all(calls.map((call, index) => answer(call, index, base)));
    const headers: Record<string, string> = { ...JSON_HEADERS };
    let status = answers[0]!.status;
    for (const one of answers) {
      Object.assign(headers, one.headers);
      if (one.status !== status) status = 207;
    }
    const items = answers.map((one) => one.item);
    const payload = items.every((item) => typeof item === 'string')
      ? `[${items.join(',')}]`
      : Buffer.concat([
          OPEN_BRACKET,
          ...items.flatMap((item, index) => (index === 0 ? [asBytes(item)] : [COMMA, asBytes(item)])),
          CLOSE_BRACKET,
        ]);
    sendJson(res, status, payload, headers);
  };
}
