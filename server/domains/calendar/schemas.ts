import { z } from 'zod';
import { ZSeasonOut, ZSeasonRef, ZSeasonStatus } from '../war/schemas';

/** The calendar domain's schemas: a season's events as given (admin, CLI files) and as answered with the day-by-day timeline. */

const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZCalendarEventInput = z
  .object({
    id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 of letters, digits and . _ -'),
    title: z.string().trim().min(1).max(200),
    category: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1-32 of a-z 0-9 - (e.g. world-event, maintenance)'),
    description: z.string().trim().max(4000).optional(),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000).optional(),
    startsAt: ZInstant,
    endsAt: ZInstant,
  })
  .refine((event) => Date.parse(event.endsAt) > Date.parse(event.startsAt), { path: ['endsAt'], message: 'must be after startsAt' });

export const ZCalendarEvents = z
  .array(ZCalendarEventInput)
  .max(2000)
  .superRefine((events, check) => {
    const seen = new Map<string, number>();
    events.forEach((event, index) => {
      const first = seen.get(event.id);
      if (first !== undefined) check.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicates events[${first}]` });
      else seen.set(event.id, index);
    });
  });

export type TCalendarEventInput = z.infer<typeof ZCalendarEventInput>;

export const ZCalendarEvent = z.object({
  id: z.string(),
  title: z.string(),
  category: z.string(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: ZSeasonStatus,
});
export type TCalendarEvent = z.infer<typeof ZCalendarEvent>;

export const ZCalendar = z.object({
  season: ZSeasonOut,
  events: z.array(ZCalendarEvent),
  timeline: z
    .array(
      z.object({
        date: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
        events: z.array(z.string()).meta({ description: 'Ids of events running at any time that day' }),
        starting: z.array(z.string()),
        ending: z.array(z.string()).meta({ description: 'Ids of events whose last moment falls on that day' }),
      }),
    )
    .meta({ description: 'One entry per day of the season, first to last day' }),
});
export type TCalendar = z.infer<typeof ZCalendar>;

export const ZCalendarInput = z.object({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
});

export const ZCalendarReplaceInput = z.object({ season: ZSeasonRef, events: ZCalendarEvents });
export const ZCalendarReplaceResult = z.object({ seasonId: z.string(), events: z.number().int() });
export type TCalendarReplaceResult = z.infer<typeof ZCalendarReplaceResult>;

export const ZCalendarFileEntry = z.object({ season: ZSeasonRef, events: ZCalendarEvents }).strict();
export const ZCalendarFileList = z.array(ZCalendarFileEntry).min(1, 'must list at least one calendar').max(200);
