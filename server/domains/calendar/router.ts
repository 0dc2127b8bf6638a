import { calendarFeed, FEED_CONTENT_TYPE, feedEtag } from './ical-feed';
import { getCalendar } from './season-calendar';
import { ZCalendar, ZCalendarEventFeedInput, ZCalendarFeed, ZCalendarFeedInput, ZCalendarInput } from './schemas';
import { httpCaching } from '../../http/caching';
import { publicProcedure, router } from '../../trpc';

/** The feeds' caching: public for five minutes, then revalidated by an ETag that leaves out DTSTAMP (ical-feed.ts). */
const FEED_CACHING = httpCaching<string>({ cacheControl: 'public, max-age=300', etag: feedEtag });

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

  /** The web client's "subscribe" link (History.vue): the whole season as iCalendar, sent raw on REST (meta.rawResponse). */
  eventsFeed: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/calendar/events.ics',
        tags: ['calendar'],
        protect: false,
        summary: "A season's events as an iCalendar feed (text/calendar) to subscribe to",
      },
      http: FEED_CACHING,
      rawResponse: { contentType: FEED_CONTENT_TYPE },
    })
    .input(ZCalendarFeedInput)
    .output(ZCalendarFeed)
    .query(({ input, ctx }) => calendarFeed(ctx.deps, { season: input.season })),

  eventFeed: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/calendar/event.ics',
        tags: ['calendar'],
        protect: false,
        summary: 'One event of a season as an iCalendar file (text/calendar)',
      },
      http: FEED_CACHING,
      rawResponse: { contentType: FEED_CONTENT_TYPE },
    })
    .input(ZCalendarEventFeedInput)
    .output(ZCalendarFeed)
    .query(({ input, ctx }) => calendarFeed(ctx.deps, { season: input.season, eventId: input.eventId })),
});
