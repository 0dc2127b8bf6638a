import type { Redis } from 'ioredis';
import { AppError } from '../errors';
import type { TLogger } from '../logger';
import type { TExpiringSet } from '../services/expiring-set';
import { MemoryThrottle, type TThrottle } from '../services/throttle';

/*
 * Both scripts store a time from the service clock and let Redis expire the key by its own clock:
 * the stored time decides (as the in-memory stores do, so tests that move the clock behave alike),
 * the PX expiry only cleans up.
 */

// KEYS[1] key, ARGV[1] expiresAtMs, ARGV[2] nowMs. 1 = added, 0 = present and unexpired.
const ADD_IF_ABSENT = `
local existing = redis.call('GET', KEYS[1])
if existing and tonumber(existing) > tonumber(ARGV[2]) then return 0 end
local ttl = tonumber(ARGV[1]) - tonumber(ARGV[2])
if ttl < 1 then return 1 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
return 1`;

/** Single-use keys (solved captchas) shared by every instance. */
export class RedisExpiringSet implements TExpiringSet {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
  ) {}

  async addIfAbsent(key: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    let added: unknown;
    try {
      added = await this.client.eval(ADD_IF_ABSENT, 1, this.prefix + key, String(expiresAtMs), String(nowMs));
    } catch (error) {
      // Accepting without the shared record would let the same solution be replayed on another instance.
      throw new AppError('SERVICE_UNAVAILABLE', 'Captcha verification is unavailable right now; retry shortly', {
        cause: error,
        retryAfterSeconds: 5,
      });
    }
    return added === 1;
  }
}

// KEYS[1] key, ARGV[1] nowMs, ARGV[2] intervalMs. Returns 0 when taken, else milliseconds to wait.
const TRY_ACQUIRE = `
local last = redis.call('GET', KEYS[1])
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
if last and now - tonumber(last) < interval then return interval - (now - tonumber(last)) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', interval)
return 0`;

/**
 * "At most once per interval per key" across every instance. While Redis is unreachable it falls
 * back to this instance's own memory: a throttle that briefly counts per instance is better than
 * refusing every request.
 */
export class RedisThrottle implements TThrottle {
  private readonly fallback: MemoryThrottle;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly intervalMs: number,
    private readonly logger?: TLogger,
  ) {
    this.fallback = new MemoryThrottle(intervalMs);
  }

  async tryAcquire(key: string, nowMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
    try {
      const wait = Number(await this.client.eval(TRY_ACQUIRE, 1, this.prefix + key, String(nowMs), String(this.intervalMs)));
      return wait > 0 ? { allowed: false, retryAfterMs: wait } : { allowed: true };
    } catch (error) {
      this.logger?.warn({ err: error }, 'redis throttle unavailable: counting in this instance');
      return this.fallback.tryAcquire(key, nowMs);
    }
  }
}
