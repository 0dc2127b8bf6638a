/**
 * "Once per key until a deadline": the one primitive behind single-use tokens (a solved captcha is
 * refused until it expires) and per-key throttles (one forced refresh per client per interval).
 * Deadlines are on the service clock, which the caller passes in (tests move it). Held in process
 * here; server/infra/redis/expiring-keys.ts has the Redis store that several instances share.
 */
export interface TExpiringKeys {
  /** Holds `key` until `expiresAtMs` unless an unexpired hold exists; then says until when that one lasts. */
  claim(key: string, expiresAtMs: number, nowMs: number): Promise<TClaim>;
}

export type TClaim = { claimed: true } | { claimed: false; heldUntilMs: number };

export class MemoryExpiringKeys implements TExpiringKeys {
  private readonly holds = new Map<string, number>();
  private lastSweepMs = 0;

  async claim(key: string, expiresAtMs: number, nowMs: number): Promise<TClaim> {
    this.sweep(nowMs);
    const heldUntilMs = this.holds.get(key);
    if (heldUntilMs !== undefined && heldUntilMs > nowMs) return { claimed: false, heldUntilMs };
    this.holds.set(key, expiresAtMs);
    return { claimed: true };
  }

  /** Forgets expired holds once a minute, so the map does not grow with every key ever seen. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 60_000) return;
    this.lastSweepMs = nowMs;
    for (const [key, heldUntilMs] of this.holds) {
      if (heldUntilMs <= nowMs) this.holds.delete(key);
    }
  }
}
