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
 * A procedure's `meta.topLevel` (server/trpc.ts): each name the body also carries beside the
 * envelope, and the field of `data` whose value it repeats (`{ points: 'data' }`: a page's records).
 */
export type TTopLevelFields = Readonly<Record<string, string>>;

const ENVELOPE_FIELDS = new Set(['code', 'message', 'data']);

/** A route's declared top-level fields, checked once when the route table is built: none may replace the envelope's own. */
export function topLevelFieldsOf(template: string, fields: TTopLevelFields | undefined): TTopLevelFields | undefined {
  if (fields === undefined) return undefined;
  for (const name of Object.keys(fields))
    if (ENVELOPE_FIELDS.has(name)) throw new Error(`${template}: meta.topLevel may not name the envelope's ${name}`);
  return fields;
}

/** `,"name":value` for each declared field whose value `data` has: what the envelope's text is followed by. */
function topLevelJson(data: unknown, fields: TTopLevelFields | undefined): string {
  if (fields === undefined || data === null || typeof data !== 'object') return '';
  let text = '';
  for (const [name, field] of Object.entries(fields)) {
    const value = (data as Record<string, unknown>)[field];
    if (value !== undefined) text += `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return text;
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
 * is not held twice (its text, then the envelope's). A success of a route with `meta.topLevel` is
 * followed by those fields of `data` at the top level (the live service's shape some web client views
 * read, beside the envelope, which stays as it is).
 */
export function envelopeBody(code: number, message: string, data: unknown, topLevel?: TTopLevelFields): string {
  const beside = topLevelJson(data, topLevel);
  const made = madeAnswerJson(data);
  if (made !== undefined) return `{"code":${code},"message":${JSON.stringify(message)},"data":${made}${beside}}`;
  const envelope = JSON.stringify({ code, message, data: data ?? {} } satisfies TEnvelope);
  return beside === '' ? envelope : `${envelope.slice(0, -1)}${beside}}`;
}
