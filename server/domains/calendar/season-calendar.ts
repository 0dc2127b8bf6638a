/** A season's calendar: reading it in the web client's shape, replacing it (admin API, demo seed) and CLI import files. */
import { and, asc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { calendarEvents } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { AppError, invalidFile, issuesFromZod, type TIssue } from '../../errors';
import { bumpCalendarVersion } from '../../infra/cache/calendar-memo';
import { resolveSeason, toSeason } from '../war';
import type { TSeasonStatus } from '../war/schemas';
import {
  ZCalendarFileEntry,
  ZCalendarFileList,
  type TCalendar,
  type TCalendarEvent,
  type TCalendarEventInput,
  type TCalendarReplaceResult,
} from './schemas';

const DAY_MS = 86_400_000;

/**
 * Replaces a season's calendar with the given events (all or nothing). Each event must overlap the
 * season; an empty list clears the calendar.
 */
export async function replaceCalendar(
  deps: TDepsOf<'db'>,
  input: { season: string | number; events: TCalendarEventInput[] },
): Promise<TCalendarReplaceResult> {
  return transaction(deps.db, (tx) => replaceCalendarIn(tx, input.season, input.events));
}

/** The one writer of calendar_events: each write bumps the `calendar` data version with it (the feeds' memo). */
async function replaceCalendarIn(
  tx: TDb,
  seasonRef: string | number,
  events: TCalendarEventInput[],
): Promise<TCalendarReplaceResult> {
  const season = await resolveSeason(tx, seasonRef);
  const issues: TIssue[] = [];
  events.forEach((event, index) => {
    if (
      Date.parse(event.startsAt) >= season.endsAt.getTime() ||
      Date.parse(event.endsAt) <= season.startsAt.getTime()
    ) {
      issues.push({
        path: `events[${index}]`,
        message: `does not overlap season ${season.id} (${season.startDate} to ${season.endDate})`,
      });
    }
  });
  if (issues.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Invalid input: ${issues[0]!.path}: ${issues[0]!.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { issues },
    );
  }
  await tx.delete(calendarEvents).where(eq(calendarEvents.seasonId, season.id)).run();
  await bumpCalendarVersion(tx);
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

/** Days of the UTC calendar that [startMs, endMs) touches: an event ending at midnight does not touch the next day. */
function daysTouched(startMs: number, endMs: number): number {
  const first = Math.floor(startMs / DAY_MS);
  const last = Math.floor((endMs - 1) / DAY_MS);
  return last - first + 1;
}

/**
 * A season's events, keyed by id in order of start, in the web client's shape (status at the
 * clock's time); 404 for an unknown season.
 */
export async function getCalendar(deps: TDepsOf<'db' | 'now'>, input: { season: string }): Promise<TCalendar> {
  const { db } = deps;
  const now = deps.now();
  const season = await resolveSeason(db, input.season);
  const rows = await calendarEventRows(db, { seasonId: season.id });
  const nowMs = now.getTime();
  const events: Record<string, TCalendarEvent> = {};
  for (const row of rows) {
    const starts = row.startsAt.getTime();
    const ends = row.endsAt.getTime();
    events[row.eventKey] = {
      id: row.eventKey,
      name: row.title,
      description: row.description ?? '',
      duration: daysTouched(starts, ends),
      occurrences: [
        { year: row.startsAt.getUTCFullYear(), month: row.startsAt.getUTCMonth() + 1, day: row.startsAt.getUTCDate() },
      ],
      droppeds: {},
      category: row.category,
      url: row.url,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      status: (nowMs < starts ? 'upcoming' : nowMs < ends ? 'active' : 'ended') as TSeasonStatus,
    };
  }
  return { season: toSeason(season, now), events };
}

/** A season's event rows in order of start, or its one event `eventKey` (none when it has no such event). */
export async function calendarEventRows(
  db: TDb,
  input: { seasonId: string; eventKey?: string },
): Promise<(typeof calendarEvents.$inferSelect)[]> {
  const inSeason = eq(calendarEvents.seasonId, input.seasonId);
  return db
    .select()
    .from(calendarEvents)
    .where(input.eventKey === undefined ? inSeason : and(inSeason, eq(calendarEvents.eventKey, input.eventKey)))
    .orderBy(asc(calendarEvents.startsAt), asc(calendarEvents.eventKey))
    .all();
}

/** CLI import: one `{ season, events }` or a list of them, each replacing that season's calendar. */
export async function importCalendarFile(
  deps: TDepsOf<'db'>,
  input: { data: unknown; onProgress?: TProgressListener },
): Promise<TCalendarReplaceResult[]> {
  const { data } = input;
  // Picked by shape rather than a zod union, so issues name the exact field instead of "no union member matched".
  const parsed = Array.isArray(data) ? ZCalendarFileList.safeParse(data) : ZCalendarFileEntry.safeParse(data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  const calendars = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  try {
    // One transaction for the whole file: a bad calendar leaves the others untouched too.
    return await transaction(deps.db, async (tx) => {
      const results = [];
      for (const calendar of calendars) {
        results.push(await replaceCalendarIn(tx, calendar.season, calendar.events));
        input.onProgress?.('writing season calendars', results.length, calendars.length);
      }
      return results;
    });
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}
