import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  type TRPCError,
} from '@trpc/server/unstable-core-do-not-import';
import type { TContext, TRequestIdentity } from '../context';
import { AppError, toPublicError } from '../errors';
import { madeAnswerJson } from '../etag';
import { BODY_LIMIT_BYTES, readBody } from '../rest/body';
import { sendJson } from '../rest/envelope';
import { responseHeadOf } from '../http/response-head';
import { procedureCall, type TProcedureCall } from '../rest/procedure-call';
import type { TCaches } from '../infra/cache';
import {
  StoredAnswers,
  storedAnswersRuleOf,
  type TStoredAnswersRule,
  type TStoredCounters,
} from '../infra/cache/stored-answers';

/** A procedure of the router as this handler calls it, resolved once at start-up. */
interface TEntry {
  call: TProcedureCall;
  type: 'query' | 'mutation';
  storedAnswers?: TStoredAnswersRule;
}

/** One call of a request, ready to run. */
interface TCall {
  path: string;
  entry: TEntry;
  input: unknown;
  /** The transformer's 400 for the request's inputs: raised for every call when it reads its input (after its access checks), as tRPC's adapter does. */
  inputError?: AppError;
  /** Where its answer is stored, for anonymous queries of procedures with `meta.http.stored`. */
  cacheKey: string | null;
}

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

/** How many calls a request to `/trpc/<path>?<search>` makes; over `maxBatchSize`, the one 400 of the whole request. */
export function trpcCallCount(path: string, search: string, maxBatchSize: number): number {
  if (!search.includes('batch') || new URLSearchParams(search).get('batch') !== '1') return 1;
  const calls = path.split(',').length;
  if (calls > maxBatchSize) {
    throw new AppError(
      'BAD_REQUEST',
      `A batch of ${calls} calls exceeds the maximum of ${maxBatchSize}: split it (TRPC_MAX_BATCH_SIZE)`,
    );
  }
  return calls;
}

const JSON_HEADERS = { 'content-type': 'application/json', vary: 'trpc-accept, accept' };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
 * Everything else (streaming batches for httpBatchStreamLink, input that is not JSON, unknown procedures,
 * wrong methods or content types) goes to tRPC's adapter, which defines those answers; the adapter
 * is the reference the fast path is tested against (test/cross-cutting/trpc-surface.test.ts).
 */
export function createTrpcHandler(options: TTrpcHandlerOptions): TTrpcHandler {
  const { router, maxBatchSize } = options;
  const config = router._def._config;
  const deserialize = (value: unknown) => config.transformer.input.deserialize(value);
  const stored = new StoredAnswers(options.caches.lru, options.nowMs, options.counters);

  const procedures = new Map<string, TEntry>();
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyProcedure>)) {
    const type = procedure._def.type;
    if (type !== 'query' && type !== 'mutation') continue;
    procedures.set(path, {
      call: procedureCall(procedure),
      type,
      storedAnswers: storedAnswersRuleOf(procedure._def.meta),
    });
  }

  /** The calls of a request, or null when tRPC's adapter must answer it. */
  function parseCalls(
    req: IncomingMessage,
    path: string,
    params: URLSearchParams,
    body: string | undefined,
  ): TCall[] | null {
    const isBatch = params.get('batch') === '1';
    let decodedPath = path;
    if (path.includes('%')) {
      try {
        decodedPath = decodeURIComponent(path);
      } catch {
        return null;
      }
    }
    const paths = isBatch ? decodedPath.split(',') : [decodedPath];
    if (paths.length > maxBatchSize) return null;
    const inputText = req.method === 'GET' ? params.get('input') : body;
    let inputs: unknown;
    if (inputText) {
      try {
        inputs = JSON.parse(inputText);
      } catch {
        return null;
      }
    }
    if (isBatch && inputs !== undefined && !isObject(inputs)) return null;
    const type = req.method === 'GET' ? 'query' : 'mutation';
    const anonymous = req.headers.authorization === undefined && req.headers['x-access-token'] === undefined;
    const calls: TCall[] = [];
    let inputError: AppError | undefined;
    for (let index = 0; index < paths.length; index++) {
      const entry = procedures.get(paths[index]!);
      if (!entry || entry.type !== type) return null;
      const raw = isBatch ? (inputs as Record<string, unknown> | undefined)?.[index] : inputs;
      let input: unknown;
      try {
        input = raw === undefined ? undefined : deserialize(raw);
      } catch (error) {
        if (!(error instanceof AppError)) return null;
        inputError ??= error;
      }
      let callText = isBatch ? null : (inputText ?? null);
      if (isBatch && raw !== undefined && anonymous && entry.storedAnswers) {
        try {
          callText = JSON.stringify(raw);
        } catch {
          // Nested deeper than JSON.stringify's stack reaches (MAX_URL_LENGTH keeps a GET's input shallower today): tRPC's adapter answers it.
          return null;
        }
      }
      calls.push({
        path: paths[index]!,
        entry,
        input,
        cacheKey:
          anonymous && type === 'query' ? stored.trpcKey(entry.storedAnswers, paths[index]!, callText || null) : null,
      });
    }
    return inputError === undefined ? calls : calls.map((call) => ({ ...call, inputError, cacheKey: null }));
  }

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

/**
 * `JSON.stringify(transformTRPCResponse(config, { result: { data } }))`. When the transformer sends the
 * data as plain JSON (`{ json: data }`, transformer.ts) and its ETag already made its text (etag.ts,
 * jsonOfAnswer), the item is written around that text: one serialisation, as on the REST surface.
 */
function resultItem(config: AnyRouter['_def']['_config'], data: unknown): string {
  const response = transformTRPCResponse(config, { result: { data } }) as { result: { data: unknown } };
  const wire = response.result.data as { json?: unknown } | null;
  const made = madeAnswerJson(data);
  if (
    made !== undefined &&
    typeof wire === 'object' &&
    wire !== null &&
    wire.json === data &&
    Object.keys(wire).length === 1
  ) {
    return `{"result":{"data":{"json":${made}}}}`;
  }
  return JSON.stringify(response);
}

function asBytes(item: string | Buffer): Buffer {
  return typeof item === 'string' ? Buffer.from(item) : item;
}

const [OPEN_BRACKET, COMMA, CLOSE_BRACKET] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [
  Buffer,
  Buffer,
  Buffer,
];

/**
 * An error as tRPC sends it (the shape our errorFormatter makes, through the output transformer), with
 * its status and the headers it calls for (Retry-After).
 */
function errorItem(
  router: AnyRouter,
  error: TRPCError,
  ctx: { requestId: string },
  call: { path?: string; type: TEntry['type'] | 'unknown'; input?: unknown },
): { item: string; status: number; headers: Record<string, string> } {
  const config = router._def._config;
  const shape = getErrorShape({ config, error, ctx, path: call.path, type: call.type, input: call.input }) as {
    data: { httpStatus: number };
  };
  const retryAfter = toPublicError(error, ctx.requestId).retryAfterSeconds;
  return {
    item: JSON.stringify(transformTRPCResponse(config, { error: shape } as never)),
    status: shape.data.httpStatus,
    headers: retryAfter === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) },
  };
}

/** An error of the whole request (rate limit, oversized batch or body, a crash) in tRPC's error format. */
export function sendTrpcError(res: ServerResponse, router: AnyRouter, error: unknown, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { item, status, headers } = errorItem(
    router,
    getTRPCErrorFromUnknown(error),
    { requestId },
    { type: 'unknown' },
  );
  sendJson(res, status, item, { ...JSON_HEADERS, ...headers, 'cache-control': 'no-store' });
}
