import type { Redis } from 'ioredis';
import type { TLogger } from '../../logger';
import type { TClaim, TExpiringKeys } from '../expiring-keys';

/*
 * The script stores the deadline, a time of the service clock, and lets Redis expire the key by its
 * own clock: the stored deadline decides (as in MemoryExpiringKeys, so tests that move the clock
 * behave alike), the PX expiry only cleans up.
 * KEYS[1] key, ARGV[1] expiresAtMs, ARGV[2] nowMs. Returns 0 when claimed, else the current hold's deadline.
 */
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held and tonumber(held) > tonumber(ARGV[2]) then return tonumber(held) end
local ttl = tonumber(ARGV[1]) - tonumber(ARGV[2])
if ttl >= 1 then redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) end
return 0`;

/**
 * Expiring keys shared by every instance. While Redis is unreachable a claim throws, unless a
 * `fallback` is given: then this instance holds keys in it (and logs a warning), for uses where a
 * hold that briefly counts per instance is better than refusing every request (a refresh throttle),
 * unlike those where it would let a token be replayed on another instance (solved captchas).
 */
export class RedisExpiringKeys implements TExpiringKeys {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly options: { fallback?: TExpiringKeys; logger?: TLogger } = {},
  ) {}

  async claim(key: string, expiresAtMs: number, nowMs: number): Promise<TClaim> {
    try {
      const heldUntilMs = Number(
        await this.client.eval(CLAIM, 1, this.prefix + key, String(expiresAtMs), String(nowMs)),
      );
      return heldUntilMs > 0 ? { claimed: false, heldUntilMs } : { claimed: true };
    } catch (error) {
      if (!this.options.fallback) throw error;
      this.options.logger?.warn(
        { err: error, prefix: this.prefix },
        'redis unavailable: holding keys in this instance',
      );
      return this.options.fallback.claim(key, expiresAtMs, nowMs);
    }
  }
}
