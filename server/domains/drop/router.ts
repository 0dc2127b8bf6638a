import { z } from 'zod';
import { zBool, zPage, zPageInput } from '../../schemas';
import { zRef } from '../war/seasons';
import { getCampaign, getCurrentCampaigns, listCampaignHistory, ZDropCampaign, ZDropStatus } from './service';
import { DROP_CURRENT_SCOPE } from './runtime';
import { publicProcedure, router } from '../../trpc';

const ZDropCurrent = z.object({
  items: z.array(ZDropCampaign),
  generatedAt: z.string().meta({ description: 'When the served list was built' }),
  expiresAt: z.string().meta({ description: 'When the cached list is rebuilt (TTL, or the next campaign start or end)' }),
  cache: z.enum(['hit', 'miss', 'refresh']).meta({ description: 'hit: served from cache; miss: rebuilt because expired; refresh: rebuilt on refresh=1' }),
});

// Static paths are defined before /drop/{id}; the REST adapter also makes static paths win.
export const dropRouter = router({
  getCurrent: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/drop/current',
        tags: ['drop'],
        protect: false,
        summary: 'Active drop campaigns',
        description:
          'Served from a short-lived cache. refresh=1 rebuilds it, at most once every DROP_REFRESH_INTERVAL_SECONDS per client; faster is a 429 with Retry-After.',
      },
      responseCache: { scope: DROP_CURRENT_SCOPE, bypassParams: ['refresh'] },
    })
    .input(z.object({ refresh: zBool().optional().meta({ description: '1 forces a cache rebuild (rate-limited per client)' }) }).prefault({}))
    .output(ZDropCurrent)
    .query(async ({ input, ctx }) => {
      const now = ctx.deps.now();
      const result = await getCurrentCampaigns(ctx.db, ctx.deps.liveData, { now, refresh: input.refresh === true, clientKey: ctx.request.clientIp });
      const freshFor = Math.max(0, Math.floor((Date.parse(result.expiresAt) - now.getTime()) / 1000));
      ctx.responseHeaders['cache-control'] = input.refresh ? 'no-cache' : `public, max-age=${freshFor}`;
      // A stored answer is replayed as it was: only a hit stays true for everyone who gets it.
      ctx.replayable = result.cache === 'hit';
      return result;
    }),

  listHistory: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/drop/history', tags: ['drop'], protect: false, summary: 'Archive of drop campaigns, newest start first' } })
    .input(
      z.object({
        ...zPageInput(10),
        status: ZDropStatus.optional().meta({ description: 'Derived from the clock: active, upcoming or ended' }),
        keyword: z.string().max(100, 'must be at most 100 characters').optional().meta({ description: 'Part of the campaign name or of a reward name (case-insensitive)' }),
      }).prefault({}),
    )
    .output(zPage(ZDropCampaign))
    .query(async ({ input, ctx }) => {
      ctx.responseHeaders['cache-control'] = 'public, max-age=60';
      return listCampaignHistory(ctx.db, input, ctx.deps.now());
    }),

  getItem: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/drop/{id}', tags: ['drop'], protect: false, summary: 'One campaign by our numeric id or the platform campaign id' } })
    .input(z.object({ id: zRef(128).meta({ description: 'Our numeric id, or the platform campaign id' }) }))
    .output(ZDropCampaign)
    .query(async ({ input, ctx }) => {
      ctx.responseHeaders['cache-control'] = 'public, max-age=60';
      return getCampaign(ctx.db, input.id, ctx.deps.now());
    }),
});
