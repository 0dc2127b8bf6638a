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
