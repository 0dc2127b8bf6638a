import { z } from 'zod';
import { zBool, zPage, zPageInput } from '../../schemas';
import { zRef } from '../war/seasons';
import { getCampaign, getCurrentCampaigns, listCampaignHistory, ZDropCampaign, ZDropStatus } from './service';
import { httpCaching } from '../../http/caching';
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
      http: httpCaching<z.infer<typeof ZDropCurrent>>({
        // A refresh is the caller's own rebuild; otherwise fresh until the cached list is rebuilt.
        cacheControl: (current, now) => current.cache === 'refresh' ? 'no-cache' : `public, max-age=${Math.max(0, Math.floor((Date.parse(current.expiresAt) - now.getTime()) / 1000))}`,
        // A stored answer is replayed as it was: only a hit stays true for everyone who gets it.
        stored: { scope: 'dropCurrent', bypassParams: ['refresh'], replayable: (current) => current.cache === 'hit' },
      }),
    })
    .input(z.object({ refresh: zBool().optional().meta({ description: '1 forces a cache rebuild (rate-limited per client)' }) }).prefault({}))
    .output(ZDropCurrent)
    .query(({ input, ctx }) =>
      getCurrentCampaigns(ctx.db, ctx.deps.liveData, { now: ctx.deps.now(), refresh: input.refresh === true, clientKey: ctx.request.clientIp }),
    ),

  listHistory: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/drop/history', tags: ['drop'], protect: false, summary: 'Archive of drop campaigns, newest start first' }, http: { cacheControl: 'public, max-age=60' } })
    .input(
      z.object({
        ...zPageInput(10),
        status: ZDropStatus.optional().meta({ description: 'Derived from the clock: active, upcoming or ended' }),
        keyword: z.string().max(100, 'must be at most 100 characters').optional().meta({ description: 'Part of the campaign name or of a reward name (case-insensitive)' }),
      }).prefault({}),
    )
    .output(zPage(ZDropCampaign))
    .query(({ input, ctx }) => listCampaignHistory(ctx.db, input, ctx.deps.now())),

  getItem: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/drop/{id}', tags: ['drop'], protect: false, summary: 'One campaign by our numeric id or the platform campaign id' }, http: { cacheControl: 'public, max-age=60' } })
    .input(z.object({ id: zRef(128).meta({ description: 'Our numeric id, or the platform campaign id' }) }))
    .output(ZDropCampaign)
    .query(({ input, ctx }) => getCampaign(ctx.db, input.id, ctx.deps.now())),
});
