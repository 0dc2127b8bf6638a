/** A season's calendar as an iCalendar feed (RFC 5545) that phone calendars subscribe to: calendar/events.ics and calendar/event.ics. */
import ical from 'ical-generator';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { weakEtag } from '../../etag';
import { getCalendar } from './season-calendar';

/** How often a subscribed calendar is asked to refresh (REFRESH-INTERVAL and X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 3600;
export const FEED_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** The UID of an event in every feed that has it: stable across requests, imports and both paths. */
export function feedEventUid(seasonId: string, eventId: string): string {
  return `${eventId}@${seasonId}.tidewatch`;
}

/**
 * The feed of a season's events, or of one of them (`eventId`; 404 when the season has no such
 * event). Events are timed at their stored UTC instants: the store has no all-day flag. DTSTAMP is
 * the clock's time; feedEtag leaves it out so that it does not defeat revalidation.
 */
export async function calendarFeed(deps: TDepsOf<'db' | 'now'>, input: { season: string; eventId?: string }): Promise<string> {
  const stamp = deps.now();
  const { season, events } = await getCalendar(deps, { season: input.season });
  if (input.eventId && !Object.hasOwn(events, input.eventId)) {
    throw new AppError('NOT_FOUND', `Season ${season.id} has no event "${input.eventId}"`);
  }
  const chosen = input.eventId ? [events[input.eventId]!] : Object.values(events);
  const name = input.eventId ? `${season.name}: ${chosen[0]!.name}` : season.name;
  const feed = ical({
    name,
    description: `Skull and Bones, season ${season.number} (${season.startDate} to ${season.endDate}), from Tidewatch`,
    prodId: { company: 'tidewatch', product: 'calendar', language: 'EN' },
    ttl: FEED_REFRESH_SECONDS,
  });
  for (const event of chosen) {
    feed.createEvent({
      id: feedEventUid(season.id, event.id),
      stamp,
      start: new Date(event.startsAt),
      end: new Date(event.endsAt),
      summary: event.name,
      description: event.description === '' ? null : event.description,
      url: event.url,
      categories: [{ name: event.category }],
    });
  }
  return feed.toString();
}

/** A weak ETag of a feed without its DTSTAMP lines: the same events give the same tag at any time. */
export function feedEtag(feed: string): string {
  return weakEtag(feed.replace(/^DTSTAMP:[^\r\n]*\r?\n/gm, ''));
}
