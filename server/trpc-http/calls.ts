// The calls of a request to /trpc: how many it makes, the router's procedures as this surface calls them,
// and each call's procedure, input and stored-answer key, read from the request.
import type { IncomingMessage } from 'node:http';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { AppError } from '../errors';
import { procedureCall, type TProcedureCall } from '../rest/procedure-call';
import { type StoredAnswers, storedAnswersRuleOf, type TStoredAnswersRule } from '../infra/cache/stored-answers';

/** A procedure of the router as this handler calls it, resolved once at start-up. */
export interface TEntry {
  call: TProcedureCall;
  type: 'query' | 'mutation';
  storedAnswers?: TStoredAnswersRule;
}

/** One call of a request, ready to run. */
export interface TCall {
  path: string;
  entry: TEntry;
  input: unknown;
  /** The transformer's 400 for the request's inputs: raised for every call when it reads its input (after its access checks), as tRPC's adapter does. */
  inputError?: AppError;
  /** Where its answer is stored, for anonymous queries of procedures with `meta.http.stored`. */
  cacheKey: string | null;
}

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The router's queries and mutations by path, resolved once at start-up. */
export function procedureEntries(router: AnyRouter): Map<string, TEntry> {
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
  return procedures;
}

/** Reads the calls of a request: null when tRPC's adapter must answer it. */
export function createCallParser(options: {
  procedures: Map<string, TEntry>;
  maxBatchSize: number;
  deserialize: (value: unknown) => unknown;
  stored: StoredAnswers;
}) {
  const { procedures, maxBatchSize, deserialize, stored } = options;
  return function parseCalls(
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
  };
}
