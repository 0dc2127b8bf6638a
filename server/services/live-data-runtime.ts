import type { TConfig } from '../config';
import type { TDropCurrentSnapshot } from './drop';
import { MemoryThrottle, type TThrottle } from './throttle';

/** One cached value with its build and expiry times. */
export interface TCacheEntry<T> {
  value: T;
  builtAtMs: number;
  expiresAtMs: number;
}

/**
 * A single-value, short-lived, in-process cache (the active drop campaigns). Admin writes call
 * `invalidate()`; a process that did not see the write (the CLI) is covered by the short TTL.
 */
export class ShortCache<T> {
  private entry: TCacheEntry<T> | undefined;
  private generation = 0;

  get(nowMs: number): TCacheEntry<T> | undefined {
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
  /** Limits `refresh=1` on /drop/current per client address. */
  dropRefreshThrottle: TThrottle;
  dropCacheTtlMs: number;
  dropRefreshIntervalMs: number;
}

export function createLiveDataRuntime(config: TConfig): TLiveDataRuntime {
  const dropRefreshIntervalMs = config.DROP_REFRESH_INTERVAL_SECONDS * 1000;
  return {
    dropCurrentCache: new ShortCache<TDropCurrentSnapshot>(),
    dropRefreshThrottle: new MemoryThrottle(dropRefreshIntervalMs),
    dropCacheTtlMs: config.DROP_CACHE_TTL_SECONDS * 1000,
    dropRefreshIntervalMs,
  };
}
