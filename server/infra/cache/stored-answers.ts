import type { IncomingMessage } from 'node:http';
import type { TReadCache } from './read-cache';
import type { TRestRoute } from '../../rest/routes';

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
 * Anonymous GETs of routes that declare `meta.responseCache` (server/trpc.ts), stored in the read
 * cache under the route's scope. Whatever invalidates that scope (a write, on every instance) drops
 * the stored responses with the values they were built from; the read cache's TTL bounds what no
 * invalidation reaches (another process, e.g. the CLI). A response is stored only if its
 * Cache-Control allows a shared cache to, and never longer than its max-age. Hits carry `Age`, as
 * from any HTTP cache.
 */
export class ResponseCache {
  constructor(
    private readonly cache: TReadCache,
    private readonly nowMs: () => number,
  ) {}

  /** The key of this request, or null when the route or request may not be served from the cache. */
  keyFor(route: TRestRoute, req: IncomingMessage, path: string, search: string): string | null {
    const declared = route.responseCache;
    if (!declared || route.method !== 'GET') return null;
    if (req.headers.authorization !== undefined || req.headers['x-access-token'] !== undefined) return null;
    if (declared.bypassParams.length > 0 && search !== '') {
      const params = new URLSearchParams(search);
      if (declared.bypassParams.some((name) => params.has(name))) return null;
    }
    return `${declared.scope}rest:${path}?${search}`;
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
