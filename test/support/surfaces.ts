/**
 * The two surfaces the generated suites (access matrix, hostile input) run every case on: REST
 * (/api, answers in the envelope) and native tRPC (/trpc, through the real @trpc/client with
 * superjson, batched with httpBatchLink as front ends send calls, or one call a request with
 * httpLink). A case is written as the REST request (path, query, body); its tRPC twin calls the
 * route's procedure (RouteTable) with the input the REST adapter would hand it: the query or the body,
 * with the path parameters as fields of the same name, and no input at all to a procedure that takes
 * none (procedureInput). Both answers are read into one form (TAnswer), so a suite states what it
 * expects once and compares the surfaces.
 *
 * This module holds the cases, the answer form and the REST side; the tRPC side is surface-trpc.ts
 * (TrpcSurface), the comparison of two answers surface-compare.ts (differences, Findings).
 */
import { isRecord } from '../../server/infra/is-record';
import { RouteTable } from '../../server/rest/routes';
import { appRouter } from '../../server/router';
import type { TTestServer } from './helpers';
import type { TRestResponse } from './http-clients';
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

export interface TProcedureRef {
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

/** The text cut to a length a failure message can show. */
export function brief(text: string): string {
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
  const envelope = (isRecord(body) ? body : {}) as { code?: number; message?: string; data?: unknown };
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
