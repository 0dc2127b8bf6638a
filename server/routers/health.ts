import { z } from 'zod';
import { pingDatabase } from '../../db/client';
import { AppError } from '../errors';
import { ZEmpty } from '../schemas';
import { publicProcedure, router } from '../trpc';

const startedAt = Date.now();

export const healthRouter = router({
  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/health', tags: ['meta'], protect: false, summary: 'Liveness and database check' } })
    .input(ZEmpty)
    .output(z.object({ status: z.literal('ok'), database: z.literal('ok'), uptimeSeconds: z.number() }))
    .query(async ({ ctx }) => {
      ctx.responseHeaders['cache-control'] = 'no-store';
      const alive = await pingDatabase(ctx.db).catch(() => false);
      if (!alive) throw new AppError('SERVICE_UNAVAILABLE', 'Database unavailable');
      return { status: 'ok' as const, database: 'ok' as const, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) };
    }),
});
