import { z } from 'zod';
import { pingDatabase } from '../../../db/client';
import { AppError } from '../../errors';
import { ZNoInput } from '../../schemas';
import { localDatabaseFile, recentDatabaseWriteProblem } from './service';
import { publicProcedure, router } from '../../trpc';

const startedAt = Date.now();

export const healthRouter = router({
  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/health', tags: ['meta'], protect: false, summary: 'Liveness and database check' }, http: { cacheControl: 'no-store' } })
    .input(ZNoInput)
    .output(
      z.object({
        status: z.literal('ok'),
        database: z.literal('ok'),
        redis: z.enum(['ok', 'unavailable', 'off']).meta({
          description: 'Shared state of several instances: off without REDIS_URL; unavailable means this instance falls back to its own memory for now',
        }),
        uptimeSeconds: z.number(),
      }),
    )
    .query(async ({ ctx }) => {
      const alive = await pingDatabase(ctx.db).catch(() => false);
      if (!alive) throw new AppError('SERVICE_UNAVAILABLE', 'Database unavailable');
      // Reads alone are not health: a read-only database answers them, and every sign-up is then a 500.
      const writeProblem = await recentDatabaseWriteProblem(ctx.db, localDatabaseFile(ctx.deps.config.DATABASE_URL), ctx.deps.now().getTime());
      if (writeProblem) {
        // The path stays in the log: health is public.
        ctx.deps.logger.error({ problem: writeProblem }, 'health: the database cannot be written');
        throw new AppError('SERVICE_UNAVAILABLE', 'Database cannot be written');
      }
      // A Redis outage degrades (per-instance limits, no cache) but does not stop the instance: still 200.
      const shared = ctx.deps.shared;
      const redis = !shared ? 'off' : shared.redis.client.status === 'ready' && shared.bus.live ? 'ok' : 'unavailable';
      return {
        status: 'ok' as const,
        database: 'ok' as const,
        redis: redis as 'ok' | 'unavailable' | 'off',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      };
    }),
});
