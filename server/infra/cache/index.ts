/**
 * The service's caches: one module, named scopes. Everything a request may be answered from without
 * reading the tables it describes lives in one of these scopes, and nowhere else.
 *
 * | scope         | holds                                                        | dropped on this instance by                                  | on several instances (REDIS_URL)                     |
 * |---------------|--------------------------------------------------------------|---------------------------------------------------------------|------------------------------------------------------|
 * | `item`        | one assembly by uuid: its view, ETag and access facts, and the stored answers of its anonymous reads | every write to that assembly (publish, edit, delete, restore, like, rate), a catalog import | the invalidation is published on the bus; every instance drops its entry |
 * | `list`        | pages of /assembly/list, and their stored answers            | every assembly write, a catalog import                        | as `item`                                            |
 * | `dropCurrent` | the active drop campaigns, and the stored answers of /drop/current | a campaign import or edit; its TTL (DROP_CACHE_TTL_SECONDS) or the next start or end of a campaign | as `item` |
 * | stored answers| exact REST bytes and tRPC items of anonymous reads of routes with `meta.http.stored`, kept in the scope their data comes from (`list`, `dropCurrent`; `item` under the assembly's key, around its live view count) | with that scope (an item's: with its entry) | with that scope |
 * | war memo      | answers computed from the war tables (war-memo.ts), per database | never: each read checks the `war` data version, bumped by triggers on every write from any process, and the clock against season boundaries | nothing to send: the version lives in the database |
 * | calendar feeds| the iCalendar feeds, events.ics and event.ics (calendar-memo.ts), per database | never: each read checks the `calendar` data version, bumped with every calendar write from any process, and the `war` one (the season's row) | nothing to send: the versions live in the database |
 *
 * `item`, `list` and the stored answers share one LRU (read-cache.ts: entries and bytes bounded, 30 s
 * TTL for what no invalidation reaches, e.g. a purge run by the CLI in another process). It stores a
 * value on its second offer while the key is remembered (its doorkeeper): what is read once in a
 * long while is built on each read, never stored. With Redis
 * it is wrapped by SharedReadCache (shared-read-cache.ts): writes publish "drop this" on the
 * invalidation bus before their response goes out, and while the bus is down nothing is served from
 * any scope. A value built from a read that raced an invalidation is never stored (the generation
 * rule of MemoryReadCache and ShortCache).
 *
 * The view counter (server/infra/view-counter.ts) is not a cache: it holds counts not yet written.
 */
import type { TInvalidationBus } from '../redis/invalidation';
import type { TEntryOptions, TReadCache } from './read-cache';
import { ShortCache } from './short-cache';
import { ENTITY_ANSWERS_SEPARATOR } from './stored-answers';

export { CACHE_KEY_GROUPS } from './stored-answers';

export { scopePrefix, type TCacheScopeName } from './scopes';
import { scopePrefix, type TCacheScopeName } from './scopes';

/** One named scope of the shared LRU. Lossy: an entry may vanish at any time. */
export class CacheScope {
  constructor(
    private readonly lru: TReadCache,
    readonly prefix: string,
  ) {}

  get<T>(key: string): T | undefined {
    return this.lru.get<T>(this.prefix + key);
  }

  set<T>(key: string, value: T, options?: TEntryOptions): void {
    this.lru.set(this.prefix + key, value, options);
  }

  /** Drops one entry, and the stored answers kept under its key (an item's), here and, through the bus, on every instance. */
  async invalidate(key: string): Promise<void> {
    await Promise.all([
      this.lru.invalidate(this.prefix + key),
      this.lru.invalidatePrefix(this.prefix + key + ENTITY_ANSWERS_SEPARATOR),
    ]);
  }

  /** Drops every entry of the scope (stored answers included) here and on every instance. */
  invalidateAll(): Promise<void> {
    return this.lru.invalidatePrefix(this.prefix);
  }
}

/** The active drop campaigns: one short-lived value, plus the stored answers of /drop/current in the LRU. */
export class DropCurrentCache<T> {
  readonly value: ShortCache<T>;
  private static readonly TARGET = 'drop-current';

  constructor(
    private readonly answers: CacheScope,
    private readonly bus: TInvalidationBus,
  ) {
    this.value = new ShortCache<T>(() => bus.live);
    bus.subscribe(DropCurrentCache.TARGET, () => this.value.invalidate());
    bus.onResync(() => this.value.invalidate());
  }

  /** Drops the campaigns and their stored answers here and on every instance. */
  async invalidate(): Promise<void> {
    this.value.invalidate();
    await Promise.all([this.bus.publish({ target: DropCurrentCache.TARGET, op: 'all' }), this.answers.invalidateAll()]);
  }
}

/** Every cache scope of one running app (held in its deps). */
export interface TCaches<TDropCurrent = unknown> {
  /** The shared LRU behind `item`, `list` and the stored answers. */
  readonly lru: TReadCache;
  readonly item: CacheScope;
  readonly list: CacheScope;
  readonly dropCurrent: DropCurrentCache<TDropCurrent>;
  /** The scope a route's stored answers live in. */
  scope(name: TCacheScopeName): CacheScope;
}

export function createCaches<TDropCurrent>(lru: TReadCache, bus: TInvalidationBus): TCaches<TDropCurrent> {
  const scopes = {
    item: new CacheScope(lru, scopePrefix('item')),
    list: new CacheScope(lru, scopePrefix('list')),
    dropCurrent: new CacheScope(lru, scopePrefix('dropCurrent')),
  };
  return {
    lru,
    item: scopes.item,
    list: scopes.list,
    dropCurrent: new DropCurrentCache<TDropCurrent>(scopes.dropCurrent, bus),
    scope: (name) => scopes[name],
  };
}

export { warMemo } from './war-memo';
