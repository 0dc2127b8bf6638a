import type { TConfig } from '../../config';
import type { DropCurrentCache } from '../../infra/cache';
import type { ShortCache } from '../../infra/cache/short-cache';
import { MemoryExpiringKeys, type TExpiringKeys } from '../../infra/expiring-keys';
import type { TDropCurrentSnapshot } from './schemas';

/** Long-lived state of the live-data domain, held in the app's deps (one per running app). */
export interface TLiveDataRuntime {
  /** The cache module's `dropCurrent` scope (its value; `invalidateDropCurrent` drops it with its stored answers). */
  dropCurrentCache: ShortCache<TDropCurrentSnapshot>;
  /** Limits `refresh=1` on /drop/current per client address: a client's refresh holds its address for dropRefreshIntervalMs. */
  dropRefreshHolds: TExpiringKeys;
  dropCacheTtlMs: number;
  dropRefreshIntervalMs: number;
  /** Drops the cached current campaigns here and, through the bus, on every other instance. */
  invalidateDropCurrent(): Promise<void>;
}

declare module '../../deps' {
  interface TAppDeps {
    /** Drop-campaign cache and refresh throttle. */
    liveData: TLiveDataRuntime;
  }
}

/** `dropCurrent`: the cache module's scope (server/infra/cache); `refreshHolds`: shared by every instance with Redis, in memory otherwise. */
export function createLiveDataRuntime(
  config: TConfig,
  dropCurrent: DropCurrentCache<TDropCurrentSnapshot>,
  refreshHolds: TExpiringKeys = new MemoryExpiringKeys(),
): TLiveDataRuntime {
  return {
    dropCurrentCache: dropCurrent.value,
    dropRefreshHolds: refreshHolds,
    dropCacheTtlMs: config.DROP_CACHE_TTL_SECONDS * 1000,
    dropRefreshIntervalMs: config.DROP_REFRESH_INTERVAL_SECONDS * 1000,
    invalidateDropCurrent: () => dropCurrent.invalidate(),
  };
}
