import { z } from 'zod';
import { ZNoInput } from '../../schemas';
import { ZSeasonRef } from './seasons';
import { latestState, listSeasons, stateOfSeason, ZSeasonSummary, ZWarState } from './service';
import { warHistory, ZHistoryRange, ZWarHistory } from './history';
import { publicProcedure, router } from '../../trpc';

/** Snapshots arrive every few minutes while a season runs; an ended season no longer changes. */
function warCacheControl(status: 'active' | 'upcoming' | 'ended'): string {
  return status === 'ended' ? 'public, max-age=3600' : 'public, max-age=60';
}

export const warRouter = router({
  getLatest: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/latest',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Newest snapshot of the current season: zone control, company standings, active hotspots',
      },
    })
    .input(ZNoInput)
    .output(ZWarState)
    .query(async ({ ctx }) => {
      const state = await latestState(ctx.db, ctx.deps.now());
      ctx.responseHeaders['cache-control'] = 'public, max-age=60';
      return state;
    }),

  listSeasons: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/stateOfWar/seasons', tags: ['stateOfWar'], protect: false, summary: 'Seasons with their time spans and snapshot coverage' } })
    .input(ZNoInput)
    .output(z.object({ items: z.array(ZSeasonSummary), currentSeasonId: z.string().nullable() }))
    .query(async ({ ctx }) => {
      ctx.responseHeaders['cache-control'] = 'public, max-age=300';
      return listSeasons(ctx.db, ctx.deps.now());
    }),

  getSeason: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/season/{season}',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Newest war state of a season (by id such as y2s4, key, or number)',
      },
    })
    .input(z.object({ season: ZSeasonRef }))
    .output(ZWarState)
    .query(async ({ input, ctx }) => {
      const state = await stateOfSeason(ctx.db, input.season, ctx.deps.now());
      ctx.responseHeaders['cache-control'] = warCacheControl(state.season.status);
      return state;
    }),

  getHistory: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/history',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Company standings over time, bucketed (1h by minute, 1d by 15 minutes, 7d by hour)',
        description: 'The window ends with the bucket holding the season\'s last snapshot; buckets are aligned to UTC minutes, quarter-hours or hours.',
      },
    })
    .input(
      z.object({
        range: ZHistoryRange.default('1d'),
        season: ZSeasonRef.optional().meta({ description: 'Season id, key or number; default the current season' }),
      }).prefault({}),
    )
    .output(ZWarHistory)
    .query(async ({ input, ctx }) => {
      const history = await warHistory(ctx.db, input, ctx.deps.now());
      ctx.responseHeaders['cache-control'] = warCacheControl(history.season.status);
      return history;
    }),
});
