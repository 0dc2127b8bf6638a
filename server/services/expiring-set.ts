/**
 * Remembers keys until they expire: used for single-use tokens such as solved captchas.
 * In process for now; the interface is what a shared store (Redis SET NX PX) would implement.
 */
export interface TExpiringSet {
  /** Adds the key; false if it was already present and not yet expired. */
  addIfAbsent(key: string, expiresAtMs: number, nowMs: number): Promise<boolean>;
}

export class MemoryExpiringSet implements TExpiringSet {
  private readonly entries = new Map<string, number>();
  private lastSweepMs = 0;

  async addIfAbsent(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    this.sweep(nowMs);
    const existing = this.entries.get(key);
    if (existing !== undefined && existing > nowMs) return false;
    this.entries.set(key, expiresAtMs);
    return true;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = nowMs;
    for (const [key, expiresAtMs] of this.entries) {
      if (expiresAtMs <= nowMs) this.entries.delete(key);
    }
  }
}
