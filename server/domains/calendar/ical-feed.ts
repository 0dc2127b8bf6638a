/** A season's calendar as an iCalendar feed (RFC 5545) that phone calendars subscribe to: calendar/events.ics and calendar/event.ics. */
import ical from 'ical-generator';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { weakEtag } from '../../etag';
import { memoizedFeed } from '../../infra/cache/calendar-memo';
import { resolveSeason, type TSeasonRow } from '../war';
import { calendarEventRows } from './season-calendar';

/** How often a subscribed calendar is asked to refresh (REFRESH-INTERVAL and X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 3600;
export const FEED_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** The UID of an event in every feed that has it: stable across requests, imports and both paths. */
export function feedEventUid(seasonId: string, eventId: string): string {
  return `${eventId}@${seasonId}.tidewatch`;
}

/**
 * The feed of a season's events, or of one of them (`eventId`; 404 when the season has no such
 * event), built once per data version (server/infra/cache/calendar-memo.ts) and the same bytes until
 * the season or its calendar changes.
 */
export async function calendarFeed(
  deps: TDepsOf<'db' | 'now'>,
  input: { season: string; eventId?: string },
): Promise<string> {
  const eventId = input.eventId || undefined;
  return memoizedFeed(
    deps.db,
    { seasonRef: input.season, eventId },
    { resolveSeason: (ref) => resolveSeason(deps.db, ref), build: (season) => buildFeed(deps, season, eventId) },
  );
}

/**
 * Events are timed at their stored UTC instants: the store has no all-day flag. DTSTAMP is the time
 * of the build: RFC 5545 (3.8.7.2) asks a feed without METHOD for the time the event was last revised
 * in the store, which is not stored; the build follows the last change, so it is the nearest time
 * known after it, and it keeps the bytes stable for as long as the data is.
 */
async function buildFeed(
  deps: TDepsOf<'db' | 'now'>,
  season: TSeasonRow,
  eventId: string | undefined,
): Promise<string> {
  const stamp = deps.now();
  const events = await calendarEventRows(deps.db, { seasonId: season.id, eventKey: eventId });
  if (eventId !== undefined && events.length === 0)
    throw new AppError('NOT_FOUND', `Season ${season.id} has no event "${eventId}"`);
  const feed = ical({
    name: eventId === undefined ? season.name : `${season.name}: ${events[0]!.title}`,
    description: `Skull and Bones, season ${season.number} (${season.startDate} to ${season.endDate}), from Tidewatch`,
    prodId: { company: 'tidewatch', product: 'calendar', language: 'EN' },
    ttl: FEED_REFRESH_SECONDS,
  });
  for (const event of events) {
    feed.createEvent({
      id: feedEventUid(season.id, event.eventKey),
      stamp,
      start: event.startsAt,
      end: event.endsAt,
      summary: event.title,
      description: event.description || null,
      url: event.url,
      categories: [{ name: event.category }],
    });
  }
  return feed.toString();
}

/**
 * A weak ETag of a feed without its DTSTAMP lines: the same events give the same tag on every
 * instance (each stamps its own build) and the tag subscribers kept before the feed was memoized.
 */
export function feedEtag(feed: string): string {
  return weakEtag(feed.replace(/^DTSTAMP:[^\r\n]*\r?\n/gm, ''));
}
