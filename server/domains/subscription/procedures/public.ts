import { ZNoInput } from '../../../schemas';
import { listPlans } from '../catalog';
import { getHall, getProgress } from '../stats';
import { publicProcedure } from '../../../trpc';
import { ZHall, ZPageQuery, ZPlans, ZProgress } from '../schemas';

export const plans = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/plans',
      tags: ['subscription'],
      protect: false,
      summary: 'Plans with their tiers, and the pay types',
    },
  })
  .input(ZNoInput)
  .output(ZPlans)
  .query(({ ctx }) => listPlans(ctx.deps));

export const progress = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/progress',
      tags: ['subscription'],
      protect: false,
      summary: "This UTC month's paid total against the monthly goal",
      description:
        'percent = paidTotal / goal * 100, two decimals, not capped at 100. supporterCount counts distinct payers this month.',
    },
  })
  .input(ZNoInput)
  .output(ZProgress)
  .query(({ ctx }) => getProgress(ctx.deps));

export const hall = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/hall',
      tags: ['subscription'],
      protect: false,
      summary: 'Core donors: supporters by all-time paid total',
      description: 'Users who set POST /subscription/hall-visibility {visible:false} are not listed.',
    },
  })
  .input(ZPageQuery)
  .output(ZHall)
  .query(({ input, ctx }) => getHall(ctx.deps, { page: input.page, pageSize: input.pageSize }));
