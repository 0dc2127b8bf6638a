// tRPC's wire format of an answer: a result item, an error item, and an error of the whole request.
import type { ServerResponse } from 'node:http';
import type { AnyRouter } from '@trpc/server';
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  transformTRPCResponse,
  TRPCError,
} from '@trpc/server/unstable-core-do-not-import';
import { toPublicError } from '../errors';
import { isRecord } from '../infra/is-record';
import { madeAnswerJson } from '../etag';
import { sendJson } from '../rest/envelope';

export const JSON_HEADERS = { 'content-type': 'application/json', vary: 'trpc-accept, accept' };

/**
 * `JSON.stringify(transformTRPCResponse(config, { result: { data } }))`. When the transformer sends the
 * data as plain JSON (`{ json: data }`, transformer.ts) and its ETag already made its text (etag.ts,
 * jsonOfAnswer), the item is written around that text: one serialisation, as on the REST surface.
 */
export function resultItem(config: AnyRouter['_def']['_config'], data: unknown): string {
  // tRPC's own rule (its resolveResponse): a stream (meta.streamed, server/trpc.ts) answers only
  // httpBatchStreamLink, whose requests go to tRPC's adapter; any other request gets this 415.
  if (isAsyncIterable(data) || (isRecord(data) && Object.values(data).some(isAsyncIterable))) {
    throw new TRPCError({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
    });
  }
  // transformTRPCResponse's result item, built here: tRPC's build makes it with two nested Babel
  // spread helpers (`_objectSpread2`, 1 to 2 µs a call, bench/README.md, issue 38) around this serialize.
  const wire = config.transformer.output.serialize(data) as { json?: unknown } | null;
  const response = { result: { data: wire } };
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

export function asBytes(item: string | Buffer): Buffer {
  return typeof item === 'string' ? Buffer.from(item) : item;
}

export const [OPEN_BRACKET, COMMA, CLOSE_BRACKET] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [
  Buffer,
  Buffer,
  Buffer,
];

/**
 * An error as tRPC sends it (the shape our errorFormatter makes, through the output transformer), with
 * its status and the headers it calls for (Retry-After).
 */
export function errorItem(
  router: AnyRouter,
  error: TRPCError,
  ctx: { requestId: string },
  call: { path?: string; type: 'query' | 'mutation' | 'unknown'; input?: unknown },
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
