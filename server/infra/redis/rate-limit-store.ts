import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { TRateLimitStore } from '../rate-limit-store';

/**
 * Counters in Redis, shared by every instance. While Redis is unreachable each instance counts in
 * its own memory (rate-limiter-flexible's insurance limiter) instead of failing every request.
 */
export function redisRateLimitStore(client: Redis): TRateLimitStore {
  return (opts) =>
    new RateLimiterRedis({
      ...opts,
      storeClient: client,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
}
