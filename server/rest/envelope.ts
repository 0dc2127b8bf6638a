import type { ServerResponse } from 'node:http';
import { madeAnswerJson } from '../etag';
import { responseHeadOf } from '../http/response-head';

/** The contract's response body: `{ code, message, data }`, with `code` equal to the HTTP status. */
export interface TEnvelope {
  code: number;
  message: string;
  data: unknown;
}

/**
 * `body` as bytes when it is sent many times (stored answers): the socket takes a Buffer without encoding it again.
 * A `content-type` in `headers` replaces the JSON one (the raw body of a `meta.rawResponse` route; native tRPC's own).
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

/**
 * `JSON.stringify({ code, message, data })`. When the data's ETag already made its text (etag.ts,
 * jsonOfAnswer), the envelope is written around it; otherwise in one go, so that a large answer
 * is not held twice (its text, then the envelope's).
 */
export function envelopeBody(code: number, message: string, data: unknown): string {
  const made = madeAnswerJson(data);
  if (made !== undefined) return `{"code":${code},"message":${JSON.stringify(message)},"data":${made}}`;
  return JSON.stringify({ code, message, data: data ?? {} } satisfies TEnvelope);
}
