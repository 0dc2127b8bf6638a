import type { TLogger } from '../../logger';
import { createRedisBus, type TInvalidationBus } from './invalidation';
import { connectRedis, type TRedis } from './connection';

/** What several instances share through Redis (REDIS_URL); absent, everything stays in process. */
export interface TSharedState {
  redis: TRedis;
  bus: TInvalidationBus;
  close(): Promise<void>;
}

export async function connectSharedState(url: string, logger: TLogger): Promise<TSharedState> {
  const redis = await connectRedis(url, logger);
  try {
    const bus = await createRedisBus(redis, logger);
    return { redis, bus, close: () => redis.close() };
  } catch (error) {
    await redis.close();
    throw error;
  }
}
