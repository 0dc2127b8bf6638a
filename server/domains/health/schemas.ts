/** Schemas of the health check. */
import { z } from 'zod';

export const ZHealth = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  redis: z.enum(['ok', 'unavailable', 'off']).meta({
    description: 'Shared state of several instances: off without REDIS_URL; unavailable means this instance falls back to its own memory for now',
  }),
  uptimeSeconds: z.number(),
});
export type THealth = z.infer<typeof ZHealth>;
