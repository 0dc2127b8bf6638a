import type { IncomingMessage } from 'node:http';
import type { THttpCaching } from '../../http/caching';
import { scopePrefix } from './scopes';
import type { TReadCache } from './read-cache';

/** Where a route's anonymous answers are stored: its scope's key prefix, and the parameters that bypass it. */
export interface TStoredAnswersRule {
  prefix: string;
  bypassParams: string[];
}

/** The stored-answers rule a procedure declares in `meta.http.stored`, resolved once at start-up. */
export function storedAnswersRuleOf(meta: unknown): TStoredAnswersRule | undefined {
  const declared = (meta as { http?: THttpCaching } | undefined)?.http?.stored;
  return declared && { prefix: scopePrefix(declared.scope), bypassParams: declared.bypassParams ?? [] };
}

/** A REST answer kept as its exact bytes: a hit costs no context, procedure call, validation or serialisation. */
interface TStoredResponse {
  body: Buffer;
  /** As sent the first time, ETag included. */
  headers: Record<string, string>;
  storedAtMs: number;
}

const MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;
const NOT_SHARED = /(?:^|,)\s*(?:no-store|private)\b/i;

/**
 * Anonymous reads of routes that declare `meta.http.stored` (server/http/caching.ts), stored in the read
 * cache under the route's scope. Whatever invalidates that scope (a write, on every instance) drops
 * the stored responses with the values they were built from; the read cache's TTL bounds what no
 * invalidation reaches (another process, e.g. the CLI). A response is stored only if its
 * Cache-Control allows a shared cache to, and never longer than its max-age. Hits carry `Age`, as
 * from any HTTP cache.
 */
export class StoredAnswers {
  constructor(
    private readonly cache: TReadCache,
    private readonly nowMs: () => number,
  ) {}

  /** The key of a REST request, or null when the route or request may not be served from the cache. */
  restKey(rule: TStoredAnswersRule | undefined, method: string, req: IncomingMessage, path: string, search: string): string | null {
    if (!rule || method !== 'GET') return null;
    if (req.headers.authorization !== undefined || req.headers['x-access-token'] !== undefined) return null;
    if (rule.bypassParams.length > 0 && search !== '') {
      const params = new URLSearchParams(search);
      if (rule.bypassParams.some((name) => params.has(name))) return null;
    }
    return `${rule.prefix}rest:${path}?${search}`;
  }

  /**
   * The key of an anonymous tRPC query: by procedure and input as sent (`inputText`, the JSON of its
   * superjson input), or null when the procedure keeps none or the input asks to bypass it.
   */
  trpcKey(rule: TStoredAnswersRule | undefined, path: string, inputText: string | null): string | null {
    if (!rule) return null;
    if (inputText !== null && rule.bypassParams.some((name) => inputText.includes(`"${name}"`))) return null;
    return `${rule.prefix}trpc:${path}?${inputText ?? ''}`;
  }

  /** The stored answer: its body and headers as first sent, and its age in seconds (the `Age` header). */
  read(key: string): { body: Buffer; headers: Record<string, string>; ageSeconds: number } | undefined {
    const stored = this.cache.get<TStoredResponse>(key);
    if (!stored) return undefined;
    return { body: stored.body, headers: stored.headers, ageSeconds: Math.floor((this.nowMs() - stored.storedAtMs) / 1000) };
  }

  /** `headers` include the ETag and Cache-Control the answer was sent with. */
  write(key: string, body: string, headers: Record<string, string>): void {
    const cacheControl = headers['cache-control'] ?? '';
    if (NOT_SHARED.test(cacheControl)) return;
    const maxAge = MAX_AGE.exec(cacheControl);
    if (maxAge && Number(maxAge[1]) === 0) return;
    const now = this.nowMs();
    // Outside Buffer's shared 8 KiB pool: a small stored body must not keep a whole pool slab alive.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
    bytes.write(body);
    // Bodies are the bulk of what the read cache holds by size: they count against its byte budget (the key in UTF-16, 2 bytes a character).
    this.cache.set<TStoredResponse>(key, { body: bytes, headers: { ...headers }, storedAtMs: now }, { ttlMs: maxAge ? Number(maxAge[1]) * 1000 : undefined, bytes: bytes.length + 2 * key.length + 512 });
  }
}
