import { z } from 'zod';
import { ZNoInput, ZTimestamp, zPage, zPageInput } from '../../../schemas';
import { listPlans } from '../catalog';
import { getHall, getProgress } from '../stats';
import { publicProcedure } from '../../../trpc';
import { ZPlans } from '../schemas';

export const plans = publicProcedure
  .meta({ openapi: { method: 'GET', path: '/subscription/plans', tags: ['subscription'], protect: false, summary: 'Plans with their tiers, and the pay types' } })
  .input(ZNoInput)
  .output(ZPlans)
  .query(({ ctx }) => listPlans(ctx.db));

export const progress = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/progress',
      tags: ['subscription'],
      protect: false,
      summary: "This UTC month's paid total against the monthly goal",
      description: 'percent = paidTotal / goal * 100, two decimals, not capped at 100. supporterCount counts distinct payers this month.',
    },
  })
  .input(ZNoInput)
  .output(
    z.object({
      month: z.string(),
      goal: z.number(),
      currency: z.string(),
      paidTotal: z.number(),
      remaining: z.number(),
      percent: z.number(),
      supporterCount: z.number().int(),
    }),
  )
  .query(({ ctx }) => getProgress(ctx.db, ctx.deps.now()));

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
  .input(z.object(zPageInput(20)).prefault({}))
  .output(
    zPage(
      z.object({
        rank: z.number().int(),
        user: z.object({ id: z.string(), username: z.string() }),
        paidTotal: z.number(),
        currency: z.string(),
        orderCount: z.number().int(),
        since: ZTimestamp,
      }),
    ).extend({ currency: z.string() }),
  )
  .query(({ input, ctx }) => getHall(ctx.db, input.page, input.pageSize));
