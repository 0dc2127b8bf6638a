import type { TLogger } from '../../logger';
import type { TRedis } from './connection';

/** What a writer tells every instance to drop. `target` names the cache (the assembly read cache, the drop cache). */
export interface TInvalidation {
  target: string;
  op: 'key' | 'prefix' | 'all';
  key?: string;
}

/**
 * Carries cache invalidations between instances. Local caches stay local; only "drop this" travels.
 * Without Redis there is nobody to tell, and the bus is always live.
 */
export interface TInvalidationBus {
  /** False while this instance may be missing invalidations (subscriber disconnected): caches must not serve. */
  readonly live: boolean;
  /** Tells the other instances; resolves once Redis has accepted the message (never rejects). */
  publish(message: TInvalidation): Promise<void>;
  /** Handles invalidations published by other instances for `target`. */
  subscribe(target: string, handler: (message: TInvalidation) => void): void;
  /** Called after a reconnect: messages may have been lost, so everything local must go. */
  onResync(handler: () => void): void;
}

export const localBus: TInvalidationBus = {
  live: true,
  publish: async () => {},
  subscribe: () => {},
  onResync: () => {},
};

export const INVALIDATION_CHANNEL = 'tw:invalidate';

export async function createRedisBus(redis: TRedis, logger: TLogger): Promise<TInvalidationBus> {
  const handlers = new Map<string, ((message: TInvalidation) => void)[]>();
  const resyncHandlers: (() => void)[] = [];
  let live = false;
  let wasLive = false;

  redis.subscriber.on('message', (channel: string, text: string) => {
    if (channel !== INVALIDATION_CHANNEL) return;
    let message: TInvalidation & { from?: string };
    try {
      message = JSON.parse(text);
    } catch {
      logger.warn({ channel }, 'ignored a malformed invalidation message');
      return;
    }
    if (message.from === redis.instanceId) return;
    for (const handler of handlers.get(message.target) ?? []) handler(message);
  });
  // Anything published while this connection was down is lost: stop serving from the caches at
  // once, and empty them when the subscription is back.
  const down = () => {
    live = false;
  };
  redis.subscriber.on('close', down);
  redis.subscriber.on('reconnecting', down);
  redis.subscriber.on('ready', () => {
    if (wasLive) for (const handler of resyncHandlers) handler();
    live = true;
    wasLive = true;
  });
  await redis.subscriber.subscribe(INVALIDATION_CHANNEL);
  live = true;
  wasLive = true;

  return {
    get live() {
      return live;
    },
    async publish(message) {
      try {
        await redis.client.publish(INVALIDATION_CHANNEL, JSON.stringify({ ...message, from: redis.instanceId }));
      } catch (error) {
        // The write itself is committed; the other instances' entries expire with their TTL.
        logger.warn({ err: error, target: message.target }, 'could not publish a cache invalidation');
      }
    },
    subscribe(target, handler) {
      handlers.set(target, [...(handlers.get(target) ?? []), handler]);
    },
    onResync(handler) {
      resyncHandlers.push(handler);
    },
  };
}
