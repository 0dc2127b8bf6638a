import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function tooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${BODY_LIMIT_BYTES} bytes`);
}

/** The whole body, at most BODY_LIMIT_BYTES (413 past it, checked on Content-Length before reading, and while streaming). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Reads a JSON object body. Empty body: undefined. Over the limit: 413 (checked on Content-Length
 * before reading, and while streaming). Not JSON: 415. Malformed: 400. Not an object: 400.
 */
export async function readJsonObjectBody(
  req: IncomingMessage,
): Promise<{ raw: Buffer; value: Record<string, unknown> } | undefined> {
  const raw = await readBody(req);
  if (raw.length === 0) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) {
    const given = req.headers['content-type'];
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      given
        ? `Unsupported Content-Type "${given}": send application/json`
        : 'Missing Content-Type: send application/json',
    );
  }
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AppError('BAD_REQUEST', `Malformed JSON body: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppError('BAD_REQUEST', 'Request body must be a JSON object');
  }
  return { raw, value: parsed as Record<string, unknown> };
}

/**
 * Query string to an object; a repeated key becomes an array. The object has no prototype: the keys
 * are the client's, and on a plain object `?__proto__=1` would read Object.prototype as an earlier
 * value and replace the prototype with an array (whose `sort`, `map`... every schema field would then
 * inherit), and `?toString=1` would find a function.
 */
export function queryToObject(search: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of search) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
