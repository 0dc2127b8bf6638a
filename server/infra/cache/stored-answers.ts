import type { IncomingMessage } from 'node:http';
import { SCOPE_PREFIXES, scopePrefix, type TCacheScopeName } from './scopes';
import type { TKeyGroups, TReadCache } from './read-cache';

/** The live counters a stored answer may carry (TStoredAnswersDeclaration's `counter`). */
export type TStoredCounterName = 'assemblyViews';

/**
 * Each counter: given the entity's key, counts one more read and returns the new value, or undefined
 * when this process does not know the value (the call then runs and learns it).
 */
export type TStoredCounters = Record<TStoredCounterName, (key: string) => number | undefined>;

/**
 * What a procedure declares in `meta.http.stored` (server/http/caching.ts): its anonymous answers are
 * stored (REST bytes, tRPC items) in the cache scope `scope`, whose invalidation drops them with the
 * data they were built from (./index.ts). Requests with one of `bypassParams` neither read nor fill
 * it; an answer for which `replayable` is false describes the call itself (e.g. `cache: "miss"`) and
 * is not stored.
 */
export interface TStoredAnswersDeclaration<TOutput> {
  scope: TCacheScopeName;
  bypassParams?: string[];
  replayable?: (output: TOutput) => boolean;
  /**
   * The input parameter naming the one entity the answer describes (an assembly's `uuid`): its
   * stored answers are kept under that entity's key in the scope and dropped with it
   * (CacheScope.invalidate), not only with the whole scope.
   */
  key?: string;
  /**
   * A top-level number of the answer that changes on every read (a view counter): the answer is
   * stored without its value, and each replay asks the counter `name` (TStoredCounters) for the new
   * one, counting the read; when the counter has none, the call runs.
   */
  counter?: { field: string; name: TStoredCounterName };
}

/** Where a route's anonymous answers are stored: its scope's key prefix, the parameters that bypass it, its entity key and counter. */
export interface TStoredAnswersRule {
  prefix: string;
  bypassParams: string[];
  keyParam?: string;
  counter?: { field: string; name: TStoredCounterName };
}

/** The stored-answers rule a procedure declares in `meta.http.stored`, resolved once at start-up. */
export function storedAnswersRuleOf(meta: unknown): TStoredAnswersRule | undefined {
  const declared = (meta as { http?: { stored?: TStoredAnswersDeclaration<unknown> } } | undefined)?.http?.stored;
  return (
    declared && {
      prefix: scopePrefix(declared.scope),
      bypassParams: declared.bypassParams ?? [],
      keyParam: declared.key,
      counter: declared.counter,
    }
  );
}

/**
 * The key of the entity a stored answer describes, followed by this separator, starts the keys of its
 * stored answers: CacheScope.invalidate(key) drops them by that prefix. Only keys of these characters
 * are used (a uuid, an id), so no key is the prefix of another's answers. Lower case only: services
 * key entities by their normalised (lower-case) uuid, which invalidation uses; a request naming it in
 * upper case is answered by the service and not stored.
 */
export const ENTITY_ANSWERS_SEPARATOR = '|';
const ENTITY_KEY = /^[a-z0-9_-]{1,64}$/;

/** The scope prefix a key of the shared LRU starts with, if any. */
function scopeOf(key: string): string | undefined {
  return SCOPE_PREFIXES.find((prefix) => key.startsWith(prefix));
}

/**
 * The groups of the shared LRU's keys (read-cache.ts TKeyGroups): a scope, dropped whole by
 * CacheScope.invalidateAll, and an entity's stored answers (`<scope><entity>|`), dropped with the
 * entity by CacheScope.invalidate. A write drops both kinds; indexed, neither walks every key.
 */
export const CACHE_KEY_GROUPS: TKeyGroups = {
  of(key) {
    const scope = scopeOf(key);
    if (scope === undefined) return [];
    const separator = key.indexOf(ENTITY_ANSWERS_SEPARATOR, scope.length);
    const entity = separator === -1 ? '' : key.slice(scope.length, separator);
    return ENTITY_KEY.test(entity) ? [scope, key.slice(0, separator + 1)] : [scope];
  },
  has(prefix) {
    const scope = scopeOf(prefix);
    if (scope === undefined) return false;
    if (prefix === scope) return true;
    return (
      prefix.endsWith(ENTITY_ANSWERS_SEPARATOR) &&
      ENTITY_KEY.test(prefix.slice(scope.length, -ENTITY_ANSWERS_SEPARATOR.length))
    );
  },
};

/**
 * A REST answer kept as its exact bytes: a hit costs no context, procedure call, validation or
 * serialisation. Kept as the text it was sent as until its first replay turns it into bytes: most
 * answers offered to the cache are refused (its doorkeeper, read-cache.ts), and copying each into a
 * buffer first was wasted.
 */
interface TStoredResponse {
  body: Buffer | string;
  /** As sent the first time, ETag included. */
  headers: Record<string, string>;
  storedAtMs: number;
}

/** An answer with a live counter, kept around the counter's value: `before` + the value + `after`. */
interface TStoredCountedResponse {
  before: string;
  after: string;
  entity: string;
  counter: TStoredCounterName;
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
    private readonly counters: TStoredCounters,
  ) {}

  /** The scope's key prefix, and the entity's when the route names one (undefined: not storable). */
  private prefixOf(rule: TStoredAnswersRule, entity: unknown): string | undefined {
    if (rule.keyParam === undefined) return rule.prefix;
    return typeof entity === 'string' && ENTITY_KEY.test(entity)
      ? `${rule.prefix}${entity}${ENTITY_ANSWERS_SEPARATOR}`
      : undefined;
  }

  /** The key of a REST request, or null when the route or request may not be served from the cache. */
  restKey(
    rule: TStoredAnswersRule | undefined,
    method: string,
    req: IncomingMessage,
    path: string,
    search: string,
  ): string | null {
    if (!rule || method !== 'GET') return null;
    if (req.headers.authorization !== undefined || req.headers['x-access-token'] !== undefined) return null;
    const params =
      (rule.bypassParams.length > 0 && search !== '') || rule.keyParam !== undefined
        ? new URLSearchParams(search)
        : undefined;
    if (params && rule.bypassParams.some((name) => params.has(name))) return null;
    const prefix = this.prefixOf(rule, rule.keyParam === undefined ? undefined : params?.get(rule.keyParam));
    return prefix === undefined ? null : `${prefix}rest:${path}?${search}`;
  }

  /**
   * The key of an anonymous tRPC query: by procedure and input as sent (`inputText`, the JSON of its
   * superjson input), or null when the procedure keeps none or the input asks to bypass it.
   */
  trpcKey(rule: TStoredAnswersRule | undefined, path: string, inputText: string | null): string | null {
    if (!rule) return null;
    if (inputText !== null && rule.bypassParams.some((name) => inputText.includes(`"${name}"`))) return null;
    const prefix = this.prefixOf(
      rule,
      rule.keyParam === undefined ? undefined : entityOfTrpcInput(inputText, rule.keyParam),
    );
    return prefix === undefined ? null : `${prefix}trpc:${path}?${inputText ?? ''}`;
  }

  /**
   * The stored answer: its body and headers as first sent (with a counter: its new value, the read
   * counted), and its age in seconds (the `Age` header). Undefined when none is stored, or when its
   * counter does not know the value.
   */
  read(key: string): { body: Buffer | string; headers: Record<string, string>; ageSeconds: number } | undefined {
    const stored = this.cache.get<TStoredResponse | TStoredCountedResponse>(key);
    if (!stored) return undefined;
    const ageSeconds = Math.floor((this.nowMs() - stored.storedAtMs) / 1000);
    if (!('counter' in stored)) {
      if (typeof stored.body === 'string') stored.body = bytesOf(stored.body);
      return { body: stored.body, headers: stored.headers, ageSeconds };
    }
    const value = this.counters[stored.counter](stored.entity);
    return value === undefined
      ? undefined
      : { body: stored.before + value + stored.after, headers: stored.headers, ageSeconds };
  }

  /**
   * `headers` include the ETag and Cache-Control the answer was sent with. With a counter (`rule.counter`),
   * `data` is the answer's data, whose counter field must appear in `body` as the first of its name
   * (a top-level field before any nested object); otherwise nothing is stored.
   */
  write(key: string, body: string, headers: Record<string, string>, rule?: TStoredAnswersRule, data?: unknown): void {
    const cacheControl = headers['cache-control'] ?? '';
    if (NOT_SHARED.test(cacheControl)) return;
    const maxAge = MAX_AGE.exec(cacheControl);
    if (maxAge && Number(maxAge[1]) === 0) return;
    const now = this.nowMs();
    const entry = {
      ttlMs: maxAge ? Number(maxAge[1]) * 1000 : undefined,
      bytes: Buffer.byteLength(body) + 2 * key.length + 512,
    };
    if (rule?.counter) {
      const split = splitAtCounter(
        body,
        rule.counter.field,
        (data as Record<string, unknown> | undefined)?.[rule.counter.field],
      );
      const entity =
        rule.keyParam === undefined
          ? undefined
          : key.slice(rule.prefix.length, key.indexOf(ENTITY_ANSWERS_SEPARATOR, rule.prefix.length));
      if (!split || entity === undefined) return;
      this.cache.set<TStoredCountedResponse>(
        key,
        { ...split, entity, counter: rule.counter.name, headers: { ...headers }, storedAtMs: now },
        entry,
      );
      return;
    }
    // Bodies are the bulk of what the read cache holds by size: they count against its byte budget (the key in UTF-16, 2 bytes a character).
    this.cache.set<TStoredResponse>(key, { body, headers: { ...headers }, storedAtMs: now }, entry);
  }
}

/** A stored body's bytes, outside Buffer's shared 8 KiB pool: a small stored body must not keep a whole pool slab alive. */
function bytesOf(body: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
  bytes.write(body);
  return bytes;
}

/** The entity key of a tRPC input as sent (`{"json":{...}}`), or undefined. */
function entityOfTrpcInput(inputText: string | null, keyParam: string): unknown {
  if (inputText === null) return undefined;
  try {
    return (JSON.parse(inputText) as { json?: Record<string, unknown> } | null)?.json?.[keyParam];
  } catch {
    return undefined;
  }
}

/**
 * `body` around the value of its first `"<field>":`, checked to be `value` (an integer). Strings in JSON
 * escape their quotes, so the first unescaped `"<field>":` is a key; it is the answer's own when no
 * object before it in the body has a key of that name (for an assembly, `views` comes before any).
 */
function splitAtCounter(body: string, field: string, value: unknown): { before: string; after: string } | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  const marker = `"${field}":`;
  const at = body.indexOf(marker);
  const digits = String(value);
  if (at < 0 || !body.startsWith(digits, at + marker.length)) return undefined;
  const end = at + marker.length + digits.length;
  if (/[0-9.eE]/.test(body[end] ?? '')) return undefined;
  return { before: body.slice(0, at + marker.length), after: body.slice(end) };
}
