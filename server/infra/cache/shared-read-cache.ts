import type { MemoryReadCache, TEntryOptions, TReadCache } from './read-cache';
import type { TInvalidationBus } from '../redis/invalidation';

/**
 * The in-process read cache of one instance, kept coherent with the others: a write here drops
 * the local entry and publishes the invalidation before the write's response goes out; every
 * other instance drops its own entry when the message arrives. While the invalidation channel is
 * down nothing is served from the cache (every read goes to the database).
 */
export class SharedReadCache implements TReadCache {
  constructor(
    private readonly local: MemoryReadCache,
    private readonly bus: TInvalidationBus,
    private readonly target = 'read-cache',
  ) {
    bus.subscribe(target, (message) => {
      if (message.op === 'key' && message.key !== undefined) void local.invalidate(message.key);
      else if (message.op === 'prefix' && message.key !== undefined) void local.invalidatePrefix(message.key);
      else local.clear();
    });
    bus.onResync(() => local.clear());
  }

  get<T>(key: string): T | undefined {
    if (!this.bus.live) return undefined;
    return this.local.get<T>(key);
  }

  set<T>(key: string, value: T, options?: TEntryOptions): void {
    if (this.bus.live) this.local.set(key, value, options);
  }

  async invalidate(key: string): Promise<void> {
    await this.local.invalidate(key);
    await this.bus.publish({ target: this.target, op: 'key', key });
  }

  async invalidatePrefix(prefix: string): Promise<void> {
    await this.local.invalidatePrefix(prefix);
    await this.bus.publish({ target: this.target, op: 'prefix', key: prefix });
  }
}
