// Events between instances, over the Redis connections every instance already has (server/infra/redis):
// one script gives each event its id and publishes it, so every instance, the publishing one included,
// gets every event in the order Redis ran the scripts, and the same id everywhere: a client may resume
// on any instance.
import type { TLogger } from '../../logger';
import type { TInvalidationBus } from '../redis/invalidation';
import type { TRedis } from '../redis/connection';
import type { EventBus, TEventTransport } from './bus';

export const EVENTS_CHANNEL = 'tw:events';
/**
 * A stream kept empty (MAXLEN 0): only its last id is used, Redis's own `ms-seq` that always increases,
 * across every instance, whatever their clocks, and across a restart of Redis as long as its clock does.
 */
const ID_STREAM = 'tw:events:ids';

// KEYS[1] the id stream, KEYS[2] the channel; ARGV[1] the event's JSON without its id. Returns the id.
const SEND = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '0', '*', 'e', '')
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[1])
return id`;

/**
 * Connects `bus` to the other instances. `invalidations` is the existing bus of the same subscriber
 * connection: its `live` says whether this instance hears everything, and its resync means it may have
 * missed something (the bus then tells its subscribers of a gap).
 */
export async function connectRedisEvents(
  bus: EventBus,
  redis: TRedis,
  invalidations: TInvalidationBus,
  logger: TLogger,
): Promise<void> {
  redis.subscriber.on('message', (channel: string, text: string) => {
    if (channel !== EVENTS_CHANNEL) return;
    const space = text.indexOf(' ');
    if (space <= 0) {
      logger.warn({ channel }, 'events: ignored a malformed message');
      return;
    }
    try {
      bus.accept(text.slice(0, space), text.slice(space + 1));
    } catch (error) {
      logger.warn({ err: error, channel }, 'events: ignored a malformed message');
    }
  });
  // ioredis subscribes again by itself after a reconnect.
  await redis.subscriber.subscribe(EVENTS_CHANNEL);
  invalidations.onResync(() => bus.resync());
  const transport: TEventTransport = {
    get live() {
      return invalidations.live;
    },
    async send(body) {
      return String(await redis.client.eval(SEND, 2, ID_STREAM, EVENTS_CHANNEL, body));
    },
  };
  bus.connect(transport);
}
