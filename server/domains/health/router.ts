import { ZNoInput } from '../../schemas';
import { ZHealth } from './schemas';
import { getHealth } from './service';
import { publicProcedure, router } from '../../trpc';

export const healthRouter = router({
  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/health',
        tags: ['meta'],
        protect: false,
        summary: 'Liveness and database check',
      },
      http: { cacheControl: 'no-store' },
    })
    .input(ZNoInput)
    .output(ZHealth)
    .query(({ ctx }) => getHealth(ctx.deps)),
});
