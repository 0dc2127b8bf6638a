/**
 * The two surfaces the generated suites (access matrix, hostile input) run every case on: REST
 * (/api, answers in the envelope) and native tRPC (/trpc, through the real @trpc/client with
 * superjson, batched with httpBatchLink as front ends send calls, or one call a request with
 * httpLink). A case is written as the REST request (path, query, body); its tRPC twin calls the
 * route's procedure (RouteTable) with the input the REST adapter would hand it: the query or the body,
 * with the path parameters as fields of the same name, and no input at all to a procedure that takes
 * none (procedureInput). Both answers are read into one form (TAnswer), so a suite states what it
 * expects once and compares the surfaces.
 */
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import superjson, { type SuperJSONResult } from 'superjson';
import * as assert from 'uvu/assert';
import { MAX_URL_LENGTH } from '../../server/app';
import { ERROR_STATUS } from '../../server/errors';
import { RouteTable } from '../../server/rest/routes';
import { appRouter, type AppRouter } from '../../server/router';
import type { TRestResponse, TTestServer } from './helpers';
import type { TDocumentOperation } from './openapi-operations';

/** One case as the REST request states it. */
export interface TCase {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export type TSurface = 'REST' | 'tRPC';

/** What one surface answered to one case. */
export interface TAnswer {
  surface: TSurface;
  /** The HTTP status: REST's response status; tRPC's `error.data.httpStatus`, 200 for a result. */
  status: number | undefined;
  /** REST: the envelope's `code` (a number); tRPC: `error.data.code` (`UNAUTHORIZED`, ...). */
  code: number | string | undefined;
  message: string | undefined;
  /** REST: the envelope's `data`. tRPC: the result, or the error's `data` without code, httpStatus and path. */
  data: unknown;
  /** Why the answer is not in its surface's format, if it is not. */
  malformed?: string;
  /** The whole answer as text (REST: the body; tRPC: the result or error as JSON). */
  text: string;
}

interface TProcedureRef {
  path: string;
  type: 'query' | 'mutation';
}

let procedures: Map<string, TProcedureRef> | undefined;

/** The procedure serving a documented operation (its REST route's procedurePath and type). */
export function procedureOf(operation: TDocumentOperation): TProcedureRef {
  procedures ??= new Map(
    RouteTable.fromRouter(appRouter)
      .all()
      .map((route) => [`${route.method} ${route.template}`, { path: route.procedurePath, type: route.type }]),
  );
  const found = procedures.get(operation.key);
  if (!found) throw new Error(`${operation.key} is documented but no REST route of the router serves it`);
  return found;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function brief(text: string): string {
  return text.length > 220 ? `${text.slice(0, 220)}…` : text;
}

/** Whether the operation's procedure takes no input: no path, query or body parameter documented. */
function takesNoInput(operation: TDocumentOperation): boolean {
  return operation.pathParams.length + operation.queryParams.length + operation.bodyFields.length === 0;
}

/**
 * The input a case's REST request hands the procedure, as a typed front end sends it: none to a
 * procedure that takes none (`client.user.me.query()`), else an object (`{}` when the request sets
 * no field, as the REST adapter hands it) with the path parameters as fields.
 */
export function procedureInput(operation: TDocumentOperation, testCase: TCase, placeholder: string): unknown {
  const source = operation.method === 'GET' ? testCase.query : testCase.body;
  if (source === undefined && takesNoInput(operation)) return undefined;
  if (operation.pathParams.length === 0) return source ?? {};
  const params = Object.fromEntries(operation.pathParams.map((name) => [name, testCase.path?.[name] ?? placeholder]));
  return { ...(isRecord(source) ? source : {}), ...params };
}

/** A REST answer read into a TAnswer; `malformed` when the body is not the envelope with code = status. */
function restAnswer(response: TRestResponse): TAnswer {
  const body: unknown = response.body;
  let malformed: string | undefined;
  if (response.status !== 304) {
    if (!isRecord(body)) malformed = 'not a JSON object';
    else if (body.code !== response.status)
      malformed = `envelope code ${body.code} is not the status ${response.status}`;
    else if (typeof body.message !== 'string') malformed = 'envelope without a message';
    else if (typeof body.data !== 'object') malformed = 'envelope without a data object';
  }
  const envelope = isRecord(body) ? body : {};
  return {
    surface: 'REST',
    status: response.status,
    code: envelope.code,
    message: envelope.message,
    data: envelope.data,
    malformed,
    text: response.text,
  };
}

/** Sends a case to REST. `rawBody` replaces the JSON body (sent as application/json). */
export async function restCall(
  app: TTestServer,
  operation: TDocumentOperation,
  token: string | undefined,
  testCase: TCase & { rawBody?: string },
  placeholder: string,
): Promise<TAnswer> {
  let path = operation.path;
  for (const name of operation.pathParams)
    path = path.replace(`{${name}}`, encodeURIComponent(testCase.path?.[name] ?? placeholder));
  const query =
    testCase.query && Object.keys(testCase.query).length > 0 ? `?${new URLSearchParams(testCase.query)}` : '';
  const hasBody = operation.method !== 'GET';
  const response = await app.rest(operation.method, `/api${path}${query}`, {
    token,
    body: hasBody && testCase.rawBody === undefined ? testCase.body : undefined,
    rawBody: testCase.rawBody,
    headers: testCase.rawBody !== undefined ? { 'content-type': 'application/json' } : undefined,
  });
  return restAnswer(response);
}

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
        const data = superjson.deserialize(body.result.data);
        return { surface: 'tRPC', status: response.status, code: undefined, message: undefined, data, text };
      }
      return errorAnswer(
        isRecord(body) && isRecord(body.error) ? superjson.deserialize(body.error as SuperJSONResult) : undefined,
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

/** The value as a REST client reads it from JSON (undefined fields gone, dates as strings). */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The value with every leaf replaced by its type: what two answers of a volatile endpoint share. */
function dataShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dataShape);
  if (isRecord(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, dataShape(value[key])]),
    );
  return value === null ? 'null' : typeof value;
}

export interface TCompare {
  /** How successful answers' data compare: equal (default), by dataShape, or not at all. */
  data?: 'equal' | 'shape' | 'skip';
  /** Applied to both answers' data before comparing (e.g. to map the ids of each surface's own fixtures). */
  normalize?: (data: unknown) => unknown;
  /** Applied to both error messages before comparing (e.g. a message naming each surface's own fixture). */
  normalizeMessage?: (message: string | undefined) => string | undefined;
}

/**
 * How a tRPC answer differs from the REST answer to the same case, [] when it does not: the tRPC
 * format, the HTTP status, then for an error the code (ERROR_STATUS of the tRPC code is the envelope
 * code), the message and the error data (issues ...), for a result the data as REST's envelope has it.
 */
export function differences(rest: TAnswer, trpc: TAnswer, compare: TCompare = {}): string[] {
  if (trpc.malformed)
    return [`tRPC answer not in tRPC's format: ${trpc.malformed}; REST answered ${rest.status} ${brief(rest.text)}`];
  if (trpc.status !== rest.status)
    return [`tRPC ${trpc.status} ${brief(trpc.text)} but REST ${rest.status} ${brief(rest.text)}`];
  const found: string[] = [];
  const normalize = compare.normalize ?? ((data: unknown) => data);
  if ((rest.status ?? 0) >= 400) {
    const status = ERROR_STATUS[trpc.code as keyof typeof ERROR_STATUS];
    if (status !== rest.code)
      found.push(`tRPC error code ${trpc.code} (${status}) but REST envelope code ${rest.code}`);
    const message = compare.normalizeMessage ?? ((text: string | undefined) => text);
    if (message(trpc.message) !== message(rest.message))
      found.push(`tRPC message ${JSON.stringify(trpc.message)} but REST ${JSON.stringify(rest.message)}`);
    if (!sameJson(normalize(trpc.data), normalize(rest.data)))
      found.push(`tRPC error data ${brief(JSON.stringify(trpc.data))} but REST ${brief(JSON.stringify(rest.data))}`);
  } else if (compare.data !== 'skip') {
    const [left, right] = [normalize(asJson(trpc.data)), normalize(rest.data)].map((data) =>
      compare.data === 'shape' ? dataShape(data) : data,
    );
    if (!sameJson(left, right))
      found.push(`tRPC data ${brief(JSON.stringify(left))} but REST ${brief(JSON.stringify(right))}`);
  }
  return found;
}

function sameJson(trpcValue: unknown, restValue: unknown): boolean {
  // REST answers `{}` where the procedure returned nothing (envelopeBody).
  return JSON.stringify(asJson(trpcValue) ?? {}) === JSON.stringify(restValue ?? {});
}

/** A failure's label, or a function building it (only called for a failure: labels of huge inputs are costly). */
export type TLabel = string | (() => string);

/**
 * Failures gathered across a test's cases instead of ending it at the first: one run names every
 * case that fails, on either surface. `assertNone` fails the test if any was found.
 */
export class Findings {
  readonly list: string[] = [];

  /** Records the problems of one case, if any, as one line. A label may be given as a function, built only then. */
  add(label: TLabel, problems: string[] | string | undefined): void {
    const all = typeof problems === 'string' ? [problems] : (problems ?? []);
    if (all.length > 0) this.list.push(`${typeof label === 'string' ? label : label()}: ${all.join('; ')}`);
  }

  /** Records a failed condition. */
  expect(condition: boolean, label: TLabel, problem: string): void {
    if (!condition) this.add(label, problem);
  }

  assertNone(): void {
    const shown = this.list.slice(0, 60).map((line) => `  - ${line}`);
    const more = this.list.length > shown.length ? `\n  (+${this.list.length - shown.length} more)` : '';
    assert.ok(this.list.length === 0, `${this.list.length} failing case(s):\n${shown.join('\n')}${more}`);
  }
}

/** Endpoints whose data differs from one call to the next (a fresh challenge, the time, whether the cache served it): compared by shape. */
export const VOLATILE_DATA = new Set(['GET /captcha', 'GET /health', 'GET /drop/current']);
