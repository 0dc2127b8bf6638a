import type { ServerResponse } from 'node:http';
import { answerJsonOrNew } from '../etag';
import { responseHeadOf } from '../http/response-head';

/** The contract's response body: `{ code, message, data }`, with `code` equal to the HTTP status. */
export interface TEnvelope {
  code: number;
  message: string;
  data: unknown;
}

/**
 * `body` as bytes when it is sent many times (stored answers): the socket takes a Buffer without encoding it again.
 * A `content-type` in `headers` replaces the JSON one (the raw body of a `meta.rawResponse` route).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string | number> = {},
): void {
  const head = responseHeadOf(res);
  head.set('content-type', 'application/json; charset=utf-8');
  head.set('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  head.setAll(headers);
  head.send(res, status, body);
}

/** `JSON.stringify({ code, message, data })`, the data's text taken from its ETag's when that made it (etag.ts, jsonOfAnswer). */
export function envelopeBody(code: number, message: string, data: unknown): string {
  return `{"code":${code},"message":${JSON.stringify(message)},"data":${answerJsonOrNew(data ?? {})}}`;
}
