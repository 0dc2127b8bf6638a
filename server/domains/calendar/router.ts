import { z } from 'zod';
import { getCalendar, ZCalendar } from './service';
import { ZSeasonRef } from '../war/seasons';
import { publicProcedure, router } from '../../trpc';

export const calendarRouter = router({
  getData: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/calendar/data',
        tags: ['calendar'],
        protect: false,
        summary: "A season's events and its day-by-day timeline",
      },
      http: { cacheControl: 'public, max-age=300' },
    })
    .input(
      z.object({
        season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
      }),
    )
    .output(ZCalendar)
    .query(({ input, ctx }) => getCalendar(ctx.db, input.season, ctx.deps.now())),
});
