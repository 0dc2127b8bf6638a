import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Where the rate limits (server/http/rate-limit.ts) keep their counters: rate-limiter-flexible, in
 * memory for one instance, RateLimiterRedis (redis/rate-limit-store.ts) when several instances share them.
 */
export type TRateLimitStore = (opts: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

export const memoryRateLimitStore: TRateLimitStore = (opts) => new RateLimiterMemory(opts);
