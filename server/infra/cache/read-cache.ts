/**
 * A read cache. Callers must treat it as lossy (entries may vanish at any time). Invalidations
 * resolve once every instance has been told (server/infra/cache/shared-read-cache.ts); the local entry is gone
 * as soon as the call returns, awaited or not.
 */
export interface TEntryOptions {
  ttlMs?: number;
  bytes?: number;
}

export interface TReadCache {
  get<T>(key: string): T | undefined;
  /**
   * `ttlMs` shortens the cache's own time-to-live for this entry (never lengthens it); `bytes`, when
   * the caller knows the entry's size (stored response bodies), counts it against the byte budget.
   */
  set<T>(key: string, value: T, options?: TEntryOptions): void;
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
  private readonly entries = new Map<string, { value: unknown; expiresAt: number; bytes: number }>();
  private bytes = 0;
  private generation = 0;
  /** Generation at which each key last missed (its value is being built). */
  private readonly missedAt = new Map<string, number>();

  constructor(
    /** `maxBytes` bounds the entries that declare their size (default: no bound beyond `maxEntries`). */
    private readonly options: { maxEntries: number; ttlMs: number; maxBytes?: number; now?: () => number } = { maxEntries: 1000, ttlMs: 30_000 },
  ) {}

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.drop(key);
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

  set<T>(key: string, value: T, options: TEntryOptions = {}): void {
    const missed = this.missedAt.get(key);
    this.missedAt.delete(key);
    if (missed !== undefined && missed !== this.generation) return;
    const bytes = options.bytes ?? 0;
    // Whatever the key held before is superseded, stored or not.
    this.drop(key);
    if (this.options.maxBytes !== undefined && bytes > this.options.maxBytes) return;
    this.entries.set(key, { value, bytes, expiresAt: this.now() + Math.min(options.ttlMs ?? this.options.ttlMs, this.options.ttlMs) });
    this.bytes += bytes;
    // Least recently used first, until both bounds hold.
    while (this.entries.size > this.options.maxEntries || (this.options.maxBytes !== undefined && this.bytes > this.options.maxBytes)) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
  }

  async invalidate(key: string): Promise<void> {
    this.generation++;
    this.drop(key);
  }

  async invalidatePrefix(prefix: string): Promise<void> {
    this.generation++;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  /** Drops everything (after a lost invalidation channel). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held by the entries that declared their size. */
  get byteSize(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
