/**
 * A read cache. Callers must treat it as lossy (entries may vanish at any time). Invalidations
 * resolve once every instance has been told (server/scale/shared-cache.ts); the local entry is gone
 * as soon as the call returns, awaited or not.
 */
export interface TReadCache {
  get<T>(key: string): T | undefined;
  /** `ttlMs` shortens the cache's own time-to-live for this entry (never lengthens it). */
  set<T>(key: string, value: T, ttlMs?: number): void;
  /** Drops one key. */
  invalidate(key: string): Promise<void>;
  /** Drops every key starting with `prefix`. */
  invalidatePrefix(prefix: string): Promise<void>;
}

/**
 * LRU with a time-to-live. The TTL bounds staleness the process cannot see (a purge run by the CLI
 * in another process, counters updated without invalidation such as views).
 *
 * A value read from the database before an invalidation and stored after it would be stale until
 * its TTL: `set` refuses a value whose key missed before the latest invalidation.
 */
export class MemoryReadCache implements TReadCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  private generation = 0;
  /** Generation at which each key last missed (its value is being built). */
  private readonly missedAt = new Map<string, number>();

  constructor(
    private readonly options: { maxEntries: number; ttlMs: number; now?: () => number } = { maxEntries: 1000, ttlMs: 30_000 },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.entries.delete(key);
      // Misses that are never followed by a set (not found) must not pile up.
      if (this.missedAt.size >= this.options.maxEntries) this.missedAt.clear();
      this.missedAt.set(key, this.generation);
      return undefined;
    }
    // Re-insert to mark as most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  set<T>(key: string, value: T, ttlMs?: number): void {
    const missed = this.missedAt.get(key);
    this.missedAt.delete(key);
    if (missed !== undefined && missed !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + Math.min(ttlMs ?? this.options.ttlMs, this.options.ttlMs) });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  async invalidate(key: string): Promise<void> {
    this.generation++;
    this.entries.delete(key);
  }

  async invalidatePrefix(prefix: string): Promise<void> {
    this.generation++;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Drops everything (after a lost invalidation channel). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
