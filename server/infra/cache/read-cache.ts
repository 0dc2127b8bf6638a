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

export interface TMemoryReadCacheOptions {
  maxEntries: number;
  ttlMs: number;
  /** Bounds the entries that declare their size (default: no bound beyond `maxEntries`). */
  maxBytes?: number;
  now?: () => number;
  /**
   * Stores a key's value only when it is offered again while the key is still remembered (a
   * doorkeeper, as in TinyLFU): about the last `maxEntries` keys refused. A value asked for once in
   * a long while would be evicted before anyone asked again; storing it only grows the old
   * generation of the heap for the garbage collector (bench/README.md, issue 22). Off by default.
   */
  admitOnSecondOffer?: boolean;
  /** The prefixes under which keys are dropped together, indexed (default: none, every prefix walks the keys). */
  groups?: TKeyGroups;
}

/**
 * Prefixes under which keys are dropped together (a scope, an entity's stored answers). The cache keeps
 * the keys of each group, so that dropping one costs what it holds rather than a walk of every key.
 */
export interface TKeyGroups {
  /** The group prefixes `key` belongs to (each one a prefix of it). */
  of(key: string): readonly string[];
  /** Whether `prefix` is a group prefix: its keys are then exactly those indexed under it, none if none. */
  has(prefix: string): boolean;
}

/**
 * The keys a cache refused once, in two generations of half its size: a key offered again while in
 * either is admitted. When the newer generation is full the older one is forgotten, so between
 * `capacity / 2` and `capacity` of the latest refused keys are remembered.
 */
class Doorkeeper {
  private newer = new Set<string>();
  private older = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** True when `key` was refused recently (it is then forgotten); otherwise remembers it and returns false. */
  admit(key: string): boolean {
    if (this.newer.delete(key) || this.older.delete(key)) return true;
    if (this.newer.size >= Math.max(1, this.capacity / 2)) {
      this.older = this.newer;
      this.newer = new Set();
    }
    this.newer.add(key);
    return false;
  }
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
  private readonly doorkeeper: Doorkeeper | undefined;
  /** The keys held under each group prefix (options.groups). */
  private readonly grouped = new Map<string, Set<string>>();

  constructor(private readonly options: TMemoryReadCacheOptions = { maxEntries: 1000, ttlMs: 30_000 }) {
    this.doorkeeper = options.admitOnSecondOffer ? new Doorkeeper(options.maxEntries) : undefined;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
    for (const group of this.options.groups?.of(key) ?? []) {
      const keys = this.grouped.get(group);
      keys?.delete(key);
      if (keys?.size === 0) this.grouped.delete(group);
    }
  }

  private index(key: string): void {
    for (const group of this.options.groups?.of(key) ?? []) {
      const keys = this.grouped.get(group);
      if (keys) keys.add(key);
      else this.grouped.set(group, new Set([key]));
    }
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
    // A key that holds a value was admitted before: its new value replaces it.
    if (this.doorkeeper && !this.entries.has(key) && !this.doorkeeper.admit(key)) return;
    const bytes = options.bytes ?? 0;
    // Whatever the key held before is superseded, stored or not.
    this.drop(key);
    if (this.options.maxBytes !== undefined && bytes > this.options.maxBytes) return;
    this.entries.set(key, {
      value,
      bytes,
      expiresAt: this.now() + Math.min(options.ttlMs ?? this.options.ttlMs, this.options.ttlMs),
    });
    this.index(key);
    this.bytes += bytes;
    // Least recently used first, until both bounds hold.
    while (
      this.entries.size > this.options.maxEntries ||
      (this.options.maxBytes !== undefined && this.bytes > this.options.maxBytes)
    ) {
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
    if (this.options.groups?.has(prefix)) {
      for (const key of [...(this.grouped.get(prefix) ?? [])]) this.drop(key);
      return;
    }
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  /** Drops everything (after a lost invalidation channel). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.grouped.clear();
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
