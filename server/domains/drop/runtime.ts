import type { TConfig } from '../../config';
import { localBus, type TInvalidationBus } from '../../infra/redis/invalidation';
import type { TDropCurrentSnapshot } from './service';
import type { TReadCache } from '../../infra/cache/read-cache';
import { MemoryExpiringKeys, type TExpiringKeys } from '../../infra/expiring-keys';

/** One cached value with its build and expiry times. */
export interface TCacheEntry<T> {
  value: T;
  builtAtMs: number;
  expiresAtMs: number;
}

/**
 * A single-value, short-lived, in-process cache (the active drop campaigns). Admin writes call
 * `invalidate()` (and tell the other instances); a process that did not see the write (the CLI) is
 * covered by the short TTL.
 */
export class ShortCache<T> {
  private entry: TCacheEntry<T> | undefined;
  private generation = 0;

  /** `usable`: false while invalidations from other instances may be missed. */
  constructor(private readonly usable: () => boolean = () => true) {}

  get(nowMs: number): TCacheEntry<T> | undefined {
    if (!this.usable()) return undefined;
    return this.entry && this.entry.expiresAtMs > nowMs ? this.entry : undefined;
  }

  /** Stores a value built from data read at `generation`; a build that raced an invalidation is dropped. */
  set(entry: TCacheEntry<T>, generation: number): void {
    if (generation === this.generation) this.entry = entry;
  }

  currentGeneration(): number {
    return this.generation;
  }

  invalidate(): void {
    this.generation++;
    this.entry = undefined;
  }
}

/** Long-lived state of the live-data domain, held in the app's deps (one per running app). */
export interface TLiveDataRuntime {
  dropCurrentCache: ShortCache<TDropCurrentSnapshot>;
  /** Limits `refresh=1` on /drop/current per client address: a client's refresh holds its address for dropRefreshIntervalMs. */
  dropRefreshHolds: TExpiringKeys;
  dropCacheTtlMs: number;
  dropRefreshIntervalMs: number;
  /** Drops the cached current campaigns here and, through the bus, on every other instance. */
  invalidateDropCurrent(): Promise<void>;
}

const DROP_CURRENT = 'drop-current';
/** Read-cache scope of the stored REST answers of /drop/current (meta.responseCache), dropped with the campaigns. */
export const DROP_CURRENT_SCOPE = 'drop:current:';

/** `shared`: the invalidation bus and the refresh holds shared by every instance (Redis); memory otherwise. */
export function createLiveDataRuntime(
  config: TConfig,
  readCache: TReadCache,
  shared: { bus?: TInvalidationBus; refreshHolds?: TExpiringKeys } = {},
): TLiveDataRuntime {
  const dropRefreshIntervalMs = config.DROP_REFRESH_INTERVAL_SECONDS * 1000;
  const bus = shared.bus ?? localBus;
  const dropCurrentCache = new ShortCache<TDropCurrentSnapshot>(() => bus.live);
  bus.subscribe(DROP_CURRENT, () => dropCurrentCache.invalidate());
  bus.onResync(() => dropCurrentCache.invalidate());
  return {
    dropCurrentCache,
    dropRefreshHolds: shared.refreshHolds ?? new MemoryExpiringKeys(),
    dropCacheTtlMs: config.DROP_CACHE_TTL_SECONDS * 1000,
    dropRefreshIntervalMs,
    async invalidateDropCurrent() {
      dropCurrentCache.invalidate();
      await Promise.all([bus.publish({ target: DROP_CURRENT, op: 'all' }), readCache.invalidatePrefix(DROP_CURRENT_SCOPE)]);
    },
  };
}
