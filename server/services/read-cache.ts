/**
 * An in-process read cache. The interface is small on purpose so a shared store (Redis, a KV)
 * can implement it later; callers must treat it as lossy (entries may vanish at any time).
 */
export interface TReadCache {
  get<T>(key: string): T | undefined;
  set<T>(key: string, value: T): void;
  /** Drops one key. */
  invalidate(key: string): void;
  /** Drops every key starting with `prefix`. */
  invalidatePrefix(prefix: string): void;
}

/**
 * LRU with a time-to-live. The TTL bounds staleness the process cannot see (a purge run by the CLI
 * in another process, counters updated without invalidation such as views).
 */
export class MemoryReadCache implements TReadCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly options: { maxEntries: number; ttlMs: number; now?: () => number } = { maxEntries: 1000, ttlMs: 30_000 },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert to mark as most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }

  invalidatePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
