import { z } from 'zod';
import { zText } from '../../text';
import { ZSeasonOut, ZSeasonRef, ZSeasonStatus } from '../war/schemas';

/** The calendar domain's schemas: a season's events as given (admin, CLI files) and as answered with the day-by-day timeline. */

const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

const ZEventId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 of letters, digits and . _ -');

export const ZCalendarEventInput = z
  .strictObject({
    id: ZEventId.meta({ description: 'The event, unique within the season (1-64 of letters, digits and . _ -)' }),
    title: zText({ min: 1, max: 200 }).meta({ description: 'Name of the event, 1-200 characters' }),
    category: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1-32 of a-z 0-9 - (e.g. world-event, maintenance)')
      .meta({ description: 'Kind of event: world-event, maintenance, ...' }),
    description: zText({ max: 4000, kind: 'multiline' })
      .optional()
      .meta({ description: 'Details, up to 4000 characters' }),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2000)
      .optional()
      .meta({ description: 'A page about it (http or https)' }),
    startsAt: ZInstant.meta({ description: 'When it starts (ISO-8601 with offset)' }),
    endsAt: ZInstant.meta({ description: 'When it ends; after startsAt, and the event overlaps the season' }),
  })
  .refine((event) => Date.parse(event.endsAt) > Date.parse(event.startsAt), {
    path: ['endsAt'],
    message: 'must be after startsAt',
  });

export const ZCalendarEvents = z
  .array(ZCalendarEventInput)
  .max(2000)
  .superRefine((events, check) => {
    const seen = new Map<string, number>();
    events.forEach((event, index) => {
      const first = seen.get(event.id);
      if (first !== undefined)
        check.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicates events[${first}]` });
      else seen.set(event.id, index);
    });
  });

export type TCalendarEventInput = z.infer<typeof ZCalendarEventInput>;

/**
 * One event as the web client's calendar reads it (src/views/calendar/History.vue): `name`,
 * `description`, `duration` in days and `occurrences` (UTC start day); `droppeds` is what the event
 * drops, not modelled yet, so always `{}`. Tidewatch's own `category`, `url`, `startsAt`, `endsAt`
 * and `status` stay beside them.
 */
export const ZCalendarEvent = z.object({
  id: z.string().meta({ description: 'The event, unique within the season' }),
  name: z.string().meta({ description: 'The title given when the calendar was imported' }),
  description: z.string().meta({ description: 'Empty when none was given' }),
  duration: z.number().int().meta({
    description:
      'UTC days the event runs on, counting its first and last day (an event ending at midnight ends the day before)',
  }),
  occurrences: z
    .array(
      z.object({
        year: z.number().int().meta({ description: 'Year' }),
        month: z.number().int().meta({ description: '1-12' }),
        day: z.number().int().meta({ description: 'Day of the month, 1-31' }),
      }),
    )
    .meta({ description: 'The UTC day each run starts on; one entry per event today' }),
  droppeds: z
    .record(
      z.string(),
      z.object({
        category: z.string().meta({ description: 'Item category of the reward' }),
        isUnknown: z.boolean().meta({ description: 'The item is not in the catalog' }),
      }),
    )
    .meta({ description: 'Rewards by item id: not modelled yet, always {}' }),
  category: z.string().meta({ description: 'Kind of event: world-event, maintenance, ...' }),
  url: z.string().nullable().meta({ description: 'A page about it; null when none' }),
  startsAt: z.string().meta({ description: 'When it starts (ISO-8601)' }),
  endsAt: z.string().meta({ description: 'When it ends (ISO-8601)' }),
  status: ZSeasonStatus.meta({ description: 'active, upcoming or ended, from the clock at response time' }),
});
export type TCalendarEvent = z.infer<typeof ZCalendarEvent>;

export const ZCalendar = z.object({
  season: ZSeasonOut.meta({ description: 'The season the calendar belongs to' }),
  events: z.record(z.string(), ZCalendarEvent).meta({ description: 'Keyed by event id, in order of start' }),
});
export type TCalendar = z.infer<typeof ZCalendar>;

export const ZCalendarInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
});

export const ZCalendarReplaceInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
  events: ZCalendarEvents.meta({ description: "The season's events: they replace the whole calendar (at most 2000)" }),
});
export const ZCalendarReplaceResult = z.object({
  seasonId: z.string().meta({ description: 'The season written' }),
  events: z.number().int().meta({ description: 'Events it now holds' }),
});
export type TCalendarReplaceResult = z.infer<typeof ZCalendarReplaceResult>;

export const ZCalendarFileEntry = z.object({ season: ZSeasonRef, events: ZCalendarEvents }).strict();
export const ZCalendarFileList = z.array(ZCalendarFileEntry).min(1, 'must list at least one calendar').max(200);

/**
 * `language` of the web client's feed links (`zh_CN`): accepted as a locale tag and otherwise
 * ignored. Titles and descriptions exist in one language, the one they were imported in, so the
 * feed has them as they are whatever the tag (docs/live-data.md).
 */
const ZFeedLanguage = z
  .string()
  .regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,2}$/, 'must be a locale tag such as zh_CN or en')
  .optional()
  .meta({
    description:
      'A locale tag such as zh_CN; accepted and ignored: the events exist in the language they were imported in',
  });

export const ZCalendarFeedInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
  language: ZFeedLanguage,
  eventId: z
    .literal('', { error: 'must be empty here: one event is at /calendar/event.ics' })
    .optional()
    .meta({ description: 'Empty or absent (the web client sends it empty): the whole season' }),
});

export const ZCalendarEventFeedInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
  language: ZFeedLanguage,
  eventId: ZEventId.meta({ description: 'The event of the season the feed holds' }),
});

export const ZCalendarFeed = z
  .string()
  .meta({ description: 'The iCalendar text (RFC 5545); REST sends it as text/calendar' });
