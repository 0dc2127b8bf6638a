import { getCalendar } from './season-calendar';
import { ZCalendar, ZCalendarInput } from './schemas';
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
    .input(ZCalendarInput)
    .output(ZCalendar)
    .query(({ input, ctx }) => getCalendar(ctx.deps, { season: input.season })),
});
