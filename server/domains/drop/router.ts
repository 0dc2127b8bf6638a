import { zPage } from '../../schemas';
import { getCurrentCampaigns } from './current';
import { getCampaign, listCampaignHistory } from './history';
import {
  ZDropCampaign,
  ZDropCurrent,
  ZDropCurrentInput,
  ZDropHistoryInput,
  ZDropItemInput,
  type TDropCurrent,
} from './schemas';
import { httpCaching } from '../../http/caching';
import { publicProcedure, router } from '../../trpc';

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
      http: httpCaching<TDropCurrent>({
        // A refresh is the caller's own rebuild; otherwise fresh until the cached list is rebuilt.
        cacheControl: (current, now) =>
          current.cache === 'refresh'
            ? 'no-cache'
            : `public, max-age=${Math.max(0, Math.floor((Date.parse(current.expiresAt) - now.getTime()) / 1000))}`,
        // A stored answer is replayed as it was: only a hit stays true for everyone who gets it.
        stored: { scope: 'dropCurrent', bypassParams: ['refresh'], replayable: (current) => current.cache === 'hit' },
      }),
    })
    .input(ZDropCurrentInput)
    .output(ZDropCurrent)
    .query(({ input, ctx }) =>
      getCurrentCampaigns(ctx.deps, { refresh: input.refresh === true, clientKey: ctx.request.clientIp }),
    ),

  listHistory: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/drop/history',
        tags: ['drop'],
        protect: false,
        summary: 'Archive of drop campaigns, newest start first',
      },
      http: { cacheControl: 'public, max-age=60' },
    })
    .input(ZDropHistoryInput)
    .output(zPage(ZDropCampaign))
    .query(({ input, ctx }) => listCampaignHistory(ctx.deps, input)),

  getItem: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/drop/{id}',
        tags: ['drop'],
        protect: false,
        summary: 'One campaign by our numeric id or the platform campaign id',
      },
      http: { cacheControl: 'public, max-age=60' },
    })
    .input(ZDropItemInput)
    .output(ZDropCampaign)
    .query(({ input, ctx }) => getCampaign(ctx.deps, { ref: input.id })),
});
