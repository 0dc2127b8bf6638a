/** A season's calendar: reading it with its day-by-day timeline, replacing it (admin API, demo seed) and CLI import files. */
import { asc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { calendarEvents } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError, invalidFile, issuesFromZod, type TIssue } from '../../errors';
import { dayStartMs, resolveSeason, toSeason } from '../war/seasons';
import type { TSeasonStatus } from '../war/schemas';
import { ZCalendarFileEntry, ZCalendarFileList, type TCalendar, type TCalendarEventInput, type TCalendarReplaceResult } from './schemas';

const DAY_MS = 86_400_000;

/**
 * Replaces a season's calendar with the given events (all or nothing). Each event must overlap the
 * season; an empty list clears the calendar.
 */
export async function replaceCalendar(deps: TDepsOf<'db'>, input: { season: string | number; events: TCalendarEventInput[] }): Promise<TCalendarReplaceResult> {
  return transaction(deps.db, (tx) => replaceCalendarIn(tx, input.season, input.events));
}

async function replaceCalendarIn(tx: TDb, seasonRef: string | number, events: TCalendarEventInput[]): Promise<TCalendarReplaceResult> {
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

/** A season's events (status at the clock's time) and one timeline entry per day of the season; 404 for an unknown season. */
export async function getCalendar(deps: TDepsOf<'db' | 'now'>, input: { season: string }): Promise<TCalendar> {
  const { db } = deps;
  const now = deps.now();
  const season = await resolveSeason(db, input.season);
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
    status: (nowMs < row.startsAt.getTime() ? 'upcoming' : nowMs < row.endsAt.getTime() ? 'active' : 'ended') as TSeasonStatus,
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

/** CLI import: one `{ season, events }` or a list of them, each replacing that season's calendar. */
export async function importCalendarFile(deps: TDepsOf<'db'>, input: { data: unknown }): Promise<TCalendarReplaceResult[]> {
  const { data } = input;
  // Picked by shape rather than a zod union, so issues name the exact field instead of "no union member matched".
  const parsed = Array.isArray(data) ? ZCalendarFileList.safeParse(data) : ZCalendarFileEntry.safeParse(data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  const calendars = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  try {
    // One transaction for the whole file: a bad calendar leaves the others untouched too.
    return await transaction(deps.db, async (tx) => {
      const results = [];
      for (const calendar of calendars) results.push(await replaceCalendarIn(tx, calendar.season, calendar.events));
      return results;
    });
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}
