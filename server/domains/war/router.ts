import { ZNoInput } from '../../schemas';
import { latestState, listSeasons, stateOfSeason } from './state';
import { warHistory } from './history';
import { ZSeasonList, ZSeasonStateInput, ZWarHistory, ZWarHistoryInput, ZWarState } from './schemas';
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
    .query(({ ctx }) => latestState(ctx.deps)),

  listSeasons: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/seasons',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Seasons with their time spans and snapshot coverage',
      },
      http: { cacheControl: 'public, max-age=300' },
    })
    .input(ZNoInput)
    .output(ZSeasonList)
    .query(({ ctx }) => listSeasons(ctx.deps)),

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
    .input(ZSeasonStateInput)
    .output(ZWarState)
    .query(({ input, ctx }) => stateOfSeason(ctx.deps, { season: input.season })),

  getHistory: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/stateOfWar/history',
        tags: ['stateOfWar'],
        protect: false,
        summary: 'Company standings over time, bucketed (1h by minute, 1d by 15 minutes, 7d by hour)',
        description:
          "The window ends with the bucket holding the season's last snapshot; buckets are aligned to UTC minutes, quarter-hours or hours.",
      },
      http: bySeasonStatus,
    })
    .input(ZWarHistoryInput)
    .output(ZWarHistory)
    .query(({ input, ctx }) => warHistory(ctx.deps, { range: input.range, season: input.season })),
});
