/**
 * The native tRPC surface of the generated suites (access matrix, hostile input): the real
 * @trpc/client with superjson, batched with httpBatchLink as front ends send calls, or one call a
 * request with httpLink; a case's tRPC twin calls the route's procedure (procedureOf) with the input
 * the REST adapter would hand it (procedureInput). Its answers are read into the same TAnswer as REST's
 * (surfaces.ts), with the check that an error is tRPC-shaped (trpcErrorShapeProblem) and the raw wire
 * requests for inputs the superjson client refuses.
 */
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import superjson, { type SuperJSONResult } from 'superjson';
import { MAX_URL_LENGTH } from '../../server/app';
import { ERROR_STATUS } from '../../server/errors';
import { isRecord } from '../../server/infra/is-record';
import type { AppRouter } from '../../server/router';
import type { TTestServer } from './helpers';
import type { TDocumentOperation } from './openapi-operations';
import { brief, procedureInput, procedureOf, type TAnswer, type TCase, type TProcedureRef } from './surfaces';

/**
 * Why `shape` is not a tRPC error as tRPC sends it (`{ message, code: <JSON-RPC number>, data: { code,
 * httpStatus } }`, with the code, number and status agreeing, and the HTTP status of a non-batch
 * response equal to `httpStatus`), or undefined when it is.
 */
export function trpcErrorShapeProblem(shape: unknown, responseStatus?: number): string | undefined {
  if (!isRecord(shape)) return 'no tRPC error object';
  if (typeof shape.message !== 'string') return 'error without a message';
  if (typeof shape.code !== 'number') return `error code ${JSON.stringify(shape.code)} is not a number`;
  const data = shape.data;
  if (!isRecord(data)) return 'error without data';
  const name = data.code as keyof typeof TRPC_ERROR_CODES_BY_KEY;
  if (typeof name !== 'string' || !(name in TRPC_ERROR_CODES_BY_KEY))
    return `data.code ${JSON.stringify(name)} is not a tRPC code`;
  if (TRPC_ERROR_CODES_BY_KEY[name] !== shape.code) return `code ${shape.code} is not the JSON-RPC code of ${name}`;
  if (name in ERROR_STATUS && data.httpStatus !== ERROR_STATUS[name as keyof typeof ERROR_STATUS]) {
    return `data.httpStatus ${data.httpStatus} is not the status of ${name}`;
  }
  if (responseStatus !== undefined && responseStatus !== 207 && responseStatus !== data.httpStatus) {
    return `HTTP status ${responseStatus} but data.httpStatus ${data.httpStatus}`;
  }
  return undefined;
}

/** A tRPC error (its shape as the server formatted it) read into a TAnswer; `malformed` when it is not tRPC-shaped. */
function errorAnswer(
  shape: unknown,
  responseStatus: number | undefined,
  text: string,
  clientMessage?: string,
): TAnswer {
  const problem = trpcErrorShapeProblem(shape, responseStatus);
  if (problem) {
    const why = clientMessage ? `${problem} (${clientMessage})` : problem;
    return {
      surface: 'tRPC',
      status: responseStatus,
      code: undefined,
      message: clientMessage,
      data: undefined,
      malformed: `${why}: HTTP ${responseStatus ?? 'none'} ${brief(text)}`,
      text,
    };
  }
  const { message, data: shapeData } = shape as { message: string; data: Record<string, unknown> };
  const { code, httpStatus, path: _path, ...data } = shapeData;
  return { surface: 'tRPC', status: httpStatus as number, code: code as string, message, data, text };
}

/** A tRPC client call's outcome read into a TAnswer. */
async function trpcAnswer(call: Promise<unknown>): Promise<TAnswer> {
  try {
    const data = await call;
    return {
      surface: 'tRPC',
      status: 200,
      code: undefined,
      message: undefined,
      data,
      text: JSON.stringify(data) ?? 'undefined',
    };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) {
      return {
        surface: 'tRPC',
        status: undefined,
        code: undefined,
        message: undefined,
        data: undefined,
        malformed: `client threw ${error}`,
        text: String(error),
      };
    }
    const response = error.meta?.response as Response | undefined;
    return errorAnswer(
      error.shape,
      response?.status,
      JSON.stringify(error.shape ?? error.meta?.responseJSON ?? null),
      error.message,
    );
  }
}

/** Keys superjson refuses to serialize (a prototype pollution guard). */
const SUPERJSON_REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Deeper than this, superjson's walk copies its path at every level (quadratic) and may overflow the stack. */
const SUPERJSON_MAX_DEPTH = 64;

/**
 * Whether the superjson client cannot (or, for deep nesting, should not) serialize `input`: a key it
 * refuses, or nesting it walks at quadratic cost until its stack overflows. Such inputs are plain JSON,
 * whose superjson form is `{ json: input }`: what the client would send if it could.
 */
function needsRawWire(input: unknown): boolean {
  const pending: [unknown, number][] = [[input, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > SUPERJSON_MAX_DEPTH) return true;
    for (const key of Object.keys(value)) {
      if (SUPERJSON_REFUSED_KEYS.has(key)) return true;
      pending.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return false;
}

export type TLink = 'httpLink' | 'httpBatchLink';

/**
 * Native tRPC clients, one per token and link, as a front end builds them. Calls started in the same
 * tick through `httpBatchLink` go out as one batch, split as the server asks (at most
 * TRPC_MAX_BATCH_SIZE calls, URLs within its limit); `requests` counts the HTTP requests made.
 */
export class TrpcSurface {
  requests = 0;
  calls = 0;
  /** Calls sent as raw wire requests because the superjson client refuses their input (see callInput). */
  rawCalls = 0;
  private readonly clients = new Map<string, Record<string, any>>();

  private readonly baseUrl: string;
  /** The most calls one batch request may carry (the server's TRPC_MAX_BATCH_SIZE). */
  readonly maxBatchSize: number;

  constructor(app: TTestServer) {
    this.baseUrl = app.url;
    this.maxBatchSize = app.config.TRPC_MAX_BATCH_SIZE;
  }

  private client(token: string | undefined, link: TLink): Record<string, any> {
    const key = `${link} ${token ?? ''}`;
    let client = this.clients.get(key);
    if (!client) {
      const options = {
        url: `${this.baseUrl}/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
        fetch: (url: any, init: any) => {
          this.requests++;
          return fetch(url, init);
        },
      };
      client = createTRPCClient<AppRouter>({
        links: [
          link === 'httpBatchLink'
            ? httpBatchLink({ ...options, maxURLLength: MAX_URL_LENGTH, maxItems: this.maxBatchSize })
            : httpLink(options),
        ],
      }) as unknown as Record<string, any>;
      this.clients.set(key, client);
    }
    return client;
  }

  /**
   * Calls the procedure with `input` as is. The request starts before this returns, so calls made
   * together share a batch. An input the batch link cannot fit in a URL goes through httpLink (the
   * server then judges the long URL); one the superjson client cannot serialize (needsRawWire) goes
   * out alone as the bytes tRPC's wire format gives it (`{"json": input}`), as any other client sends it.
   */
  callInput(operation: TDocumentOperation, token: string | undefined, input: unknown, link: TLink): Promise<TAnswer> {
    const procedure = procedureOf(operation);
    this.calls++;
    if (needsRawWire(input)) return this.callRaw(procedure, token, input);
    const fits = procedure.type === 'mutation' || link === 'httpLink' || this.fitsBatchUrl(procedure, input);
    const node = procedure.path
      .split('.')
      .reduce((parent, name) => parent[name], this.client(token, fits ? link : 'httpLink'));
    return trpcAnswer(procedure.type === 'query' ? node.query(input) : node.mutate(input));
  }

  private fitsBatchUrl(procedure: TProcedureRef, input: unknown): boolean {
    const serialized = JSON.stringify({ 0: superjson.serialize(input) });
    return (
      `${this.baseUrl}/trpc/${procedure.path}?batch=1&input=${encodeURIComponent(serialized)}`.length <= MAX_URL_LENGTH
    );
  }

  private async callRaw(procedure: TProcedureRef, token: string | undefined, input: unknown): Promise<TAnswer> {
    this.requests++;
    this.rawCalls++;
    const wire = JSON.stringify({ json: input });
    const isQuery = procedure.type === 'query';
    const response = await fetch(
      `${this.baseUrl}/trpc/${procedure.path}${isQuery ? `?input=${encodeURIComponent(wire)}` : ''}`,
      {
        method: isQuery ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: isQuery ? undefined : wire,
      },
    );
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      if (isRecord(body) && isRecord(body.result)) {
        const data = superjson.deserialize(body.result.data as SuperJSONResult);
        return { surface: 'tRPC', status: response.status, code: undefined, message: undefined, data, text };
      }
      const wireError = isRecord(body) ? body.error : undefined;
      return errorAnswer(
        isRecord(wireError) ? superjson.deserialize(wireError as unknown as SuperJSONResult) : undefined,
        response.status,
        text,
      );
    } catch (error) {
      return errorAnswer(undefined, response.status, text, String(error));
    }
  }

  /** The tRPC twin of a REST case. */
  call(
    operation: TDocumentOperation,
    token: string | undefined,
    testCase: TCase,
    placeholder: string,
    link: TLink,
  ): Promise<TAnswer> {
    return this.callInput(operation, token, procedureInput(operation, testCase, placeholder), link);
  }
}
