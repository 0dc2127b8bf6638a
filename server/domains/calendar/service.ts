import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { calendarEvents } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import { AppError, issuesFromZod, type TIssue } from '../../errors';
import { invalidFile } from '../drop/service';
import { dayStartMs, resolveSeason, toSeason, ZSeasonOut, ZSeasonRef } from '../war/seasons';

const DAY_MS = 86_400_000;
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
  status: z.enum(['active', 'upcoming', 'ended']),
});

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

/**
 * Replaces a season's calendar with the given events (all or nothing). Each event must overlap the
 * season; an empty list clears the calendar.
 */
export async function replaceCalendar(db: TDb, seasonRef: string | number, events: TCalendarEventInput[]): Promise<{ seasonId: string; events: number }> {
  return transaction(db, (tx) => replaceCalendarIn(tx, seasonRef, events));
}

async function replaceCalendarIn(tx: TDb, seasonRef: string | number, events: TCalendarEventInput[]): Promise<{ seasonId: string; events: number }> {
  const season = await resolveSeason(tx, seasonRef);
  const issues: TIssue[] = [];
  events.forEach((event, index) => {
    if (Date.parse(event.startsAt) >= season.endsAt.getTime() || Date.parse(event.endsAt) <= season.startsAt.getTime()) {
      issues.push({ path: `events[${index}]`, message: `does not overlap season ${season.id} (${season.startDate} to ${season.endDate})` });
    }
  });
  if (issues.length > 0) {
    throw new AppError('BAD_REQUEST', `Invalid input: ${issues[0]!.path}: ${issues[0]!.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`, { issues });
  }
  await tx.delete(calendarEvents).where(eq(calendarEvents.seasonId, season.id)).run();
  if (events.length > 0) {
    for (let start = 0; start < events.length; start += 500) {
      await tx
        .insert(calendarEvents)
        .values(
          events.slice(start, start + 500).map((event) => ({
            seasonId: season.id,
            eventKey: event.id,
            title: event.title,
            category: event.category,
            description: event.description ?? null,
            url: event.url ?? null,
            startsAt: new Date(event.startsAt),
            endsAt: new Date(event.endsAt),
          })),
        )
        .run();
    }
  }
  return { seasonId: season.id, events: events.length };
}

export async function getCalendar(db: TDb, seasonRef: string, now: Date): Promise<TCalendar> {
  const season = await resolveSeason(db, seasonRef);
  const rows = await db
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.seasonId, season.id))
    .orderBy(asc(calendarEvents.startsAt), asc(calendarEvents.eventKey))
    .all();
  const nowMs = now.getTime();
  const events = rows.map((row) => ({
    id: row.eventKey,
    title: row.title,
    category: row.category,
    description: row.description,
    url: row.url,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: (nowMs < row.startsAt.getTime() ? 'upcoming' : nowMs < row.endsAt.getTime() ? 'active' : 'ended') as 'active' | 'upcoming' | 'ended',
  }));
  const timeline: TCalendar['timeline'] = [];
  for (let day = dayStartMs(season.startDate); day < season.endsAt.getTime(); day += DAY_MS) {
    const dayEnd = day + DAY_MS;
    const entry = { date: new Date(day).toISOString().slice(0, 10), events: [] as string[], starting: [] as string[], ending: [] as string[] };
    for (const row of rows) {
      const starts = row.startsAt.getTime();
      const ends = row.endsAt.getTime();
      if (starts < dayEnd && ends > day) entry.events.push(row.eventKey);
      if (starts >= day && starts < dayEnd) entry.starting.push(row.eventKey);
      if (ends > day && ends <= dayEnd) entry.ending.push(row.eventKey);
    }
    timeline.push(entry);
  }
  return { season: toSeason(season, now), events, timeline };
}

const ZCalendarFileEntry = z.object({ season: ZSeasonRef, events: ZCalendarEvents }).strict();
const ZCalendarFileList = z.array(ZCalendarFileEntry).min(1, 'must list at least one calendar').max(200);

/** CLI import: one `{ season, events }` or a list of them, each replacing that season's calendar. */
export async function importCalendarFile(db: TDb, data: unknown): Promise<{ seasonId: string; events: number }[]> {
  // Picked by shape rather than a zod union, so issues name the exact field instead of "no union member matched".
  const parsed = Array.isArray(data) ? ZCalendarFileList.safeParse(data) : ZCalendarFileEntry.safeParse(data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  const calendars = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  try {
    // One transaction for the whole file: a bad calendar leaves the others untouched too.
    return await transaction(db, async (tx) => {
      const results = [];
      for (const calendar of calendars) results.push(await replaceCalendarIn(tx, calendar.season, calendar.events));
      return results;
    });
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}
