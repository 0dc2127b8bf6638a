import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { TLogger } from '../../logger';

/** The Redis connections of one instance: commands, and a second connection in subscriber mode. */
export interface TRedis {
  /** Commands (SET NX PX, PUBLISH, rate-limit scripts). Fails fast while disconnected (no offline queue). */
  client: Redis;
  /** Subscriber-mode connection for cache invalidations; re-subscribes by itself after a reconnect. */
  subscriber: Redis;
  /** Identifies this instance's own messages and locks. */
  instanceId: string;
  close(): Promise<void>;
}

const COMMON: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 5_000,
  // A request must not hang on a lost Redis: one retry, then the caller's fallback or error.
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/** Hides the password of a redis:// URL for logs and error messages. */
export function redactRedisUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/** Connects both connections; throws (naming the redacted URL) when Redis cannot be reached at start-up. */
export async function connectRedis(url: string, logger: TLogger): Promise<TRedis> {
  const client = new Redis(url, { ...COMMON, enableOfflineQueue: false });
  const subscriber = new Redis(url, { ...COMMON, enableOfflineQueue: true });
  let warned = 0;
  const onError = (error: Error) => {
    // ioredis reports every failed reconnect; one line per 10 s is enough to see an outage.
    if (Date.now() - warned > 10_000) {
      warned = Date.now();
      logger.warn({ err: error, redis: redactRedisUrl(url) }, 'redis connection error');
    }
  };
  client.on('error', onError);
  subscriber.on('error', onError);
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw new Error(`cannot connect to REDIS_URL ${redactRedisUrl(url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return {
    client,
    subscriber,
    instanceId: randomUUID(),
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
      client.disconnect();
      subscriber.disconnect();
    },
  };
}

// Deletes the lock only if this instance still holds it (it may have expired and been taken since).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Runs `work` while holding a Redis lock (SET NX PX), waiting up to `waitMs` for another instance
 * to release it. Used so that instances starting together migrate and seed one after the other.
 */
export async function withRedisLock<T>(
  redis: TRedis,
  name: string,
  options: { ttlMs: number; waitMs: number },
  work: () => Promise<T>,
): Promise<T> {
  const key = `tw:lock:${name}`;
  const token = `${redis.instanceId}:${randomUUID()}`;
  const deadline = Date.now() + options.waitMs;
  while ((await redis.client.set(key, token, 'PX', options.ttlMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${options.waitMs} ms waiting for the Redis lock ${key}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await work();
  } finally {
    await redis.client.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}

/** Takes a lock for one run of a periodic job without waiting: true if this instance should run it. */
export async function tryRedisLock(redis: TRedis, name: string, ttlMs: number): Promise<boolean> {
  return (await redis.client.set(`tw:lock:${name}`, redis.instanceId, 'PX', ttlMs, 'NX')) === 'OK';
}
