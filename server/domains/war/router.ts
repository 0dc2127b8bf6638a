import { z } from 'zod';
import { ZNoInput } from '../../schemas';
import { ZSeasonRef } from './seasons';
import { latestState, listSeasons, stateOfSeason, ZSeasonSummary, ZWarState } from './service';
import { warHistory, ZHistoryRange, ZWarHistory } from './history';
import { httpCaching } from '../../http/caching';
import { publicProcedure, router } from '../../trpc';

/** Snapshots arrive every few minutes while a season runs; an ended season no longer changes. */
const bySeasonStatus = httpCaching<{ season: { status: 'active' | 'upcoming' | 'ended' } }>({
  cacheControl: ({ season }) => (season.status === 'ended' ? 'public, max-age=3600' : 'public, max-age=60'),
});

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
      http: { cacheControl: 'public, max-age=60' },
    })
    .input(ZNoInput)
    .output(ZWarState)
    .query(({ ctx }) => latestState(ctx.db, ctx.deps.now())),

  listSeasons: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/stateOfWar/seasons', tags: ['stateOfWar'], protect: false, summary: 'Seasons with their time spans and snapshot coverage' }, http: { cacheControl: 'public, max-age=300' } })
    .input(ZNoInput)
    .output(z.object({ items: z.array(ZSeasonSummary), currentSeasonId: z.string().nullable() }))
    .query(({ ctx }) => listSeasons(ctx.db, ctx.deps.now())),

  getSeason: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/season/{season}',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Newest war state of a season (by id such as y2s4, key, or number)',
      },
      http: bySeasonStatus,
    })
    .input(z.object({ season: ZSeasonRef }))
    .output(ZWarState)
    .query(({ input, ctx }) => stateOfSeason(ctx.db, input.season, ctx.deps.now())),

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
      http: bySeasonStatus,
    })
    .input(
      z.object({
        range: ZHistoryRange.default('1d'),
        season: ZSeasonRef.optional().meta({ description: 'Season id, key or number; default the current season' }),
      }).prefault({}),
    )
    .output(ZWarHistory)
    .query(({ input, ctx }) => warHistory(ctx.db, input, ctx.deps.now())),
});
