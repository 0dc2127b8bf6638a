import type { ServerResponse } from 'node:http';

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
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}

export function envelopeBody(code: number, message: string, data: unknown): string {
  return JSON.stringify({ code, message, data: data ?? {} } satisfies TEnvelope);
}
