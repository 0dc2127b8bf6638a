/**
 * "At most once per interval per key" (e.g. a forced cache refresh per client). In process for now;
 * the interface is what a shared store (Redis SET NX PX) would implement.
 */
export interface TThrottle {
  /** Takes the key's slot if free; otherwise says how long until it frees up. */
  tryAcquire(key: string, nowMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }>;
}

export class MemoryThrottle implements TThrottle {
  private readonly lastAllowed = new Map<string, number>();
  private lastSweepMs = 0;

  constructor(private readonly intervalMs: number) {}

  async tryAcquire(key: string, nowMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
    this.sweep(nowMs);
    const last = this.lastAllowed.get(key);
    if (last !== undefined && nowMs - last < this.intervalMs) {
      return { allowed: false, retryAfterMs: this.intervalMs - (nowMs - last) };
    }
    this.lastAllowed.set(key, nowMs);
    return { allowed: true };
  }

  /** Forgets keys whose interval has passed, so the map does not grow with every client ever seen. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = nowMs;
    for (const [key, at] of this.lastAllowed) {
      if (nowMs - at >= this.intervalMs) this.lastAllowed.delete(key);
    }
  }
}
