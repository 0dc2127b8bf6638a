/** Schemas of the health check. */
import { z } from 'zod';

export const ZHealth = z.object({
  status: z.literal('ok').meta({ description: 'The instance serves (a failing check answers 503 instead)' }),
  database: z.literal('ok').meta({ description: 'The database answered a query' }),
  redis: z.enum(['ok', 'unavailable', 'off']).meta({
    description:
      'Shared state of several instances: off without REDIS_URL; unavailable means this instance falls back to its own memory for now',
  }),
  events: z.enum(['all-instances', 'this-instance']).meta({
    description:
      'Where live events published now reach: all-instances through Redis, or this-instance (no REDIS_URL, or Redis down: this instance still serves its own streams)',
  }),
  liveStreams: z
    .number()
    .int()
    .meta({ description: 'Live streams open on this instance (WebSocket, SSE, tRPC subscriptions)' }),
  uptimeSeconds: z.number().meta({ description: 'Seconds since this instance started' }),
});
export type THealth = z.infer<typeof ZHealth>;
