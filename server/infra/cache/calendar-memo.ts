import { inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { dataVersions } from '../../../db/schema';
import { perDatabase, prepared } from '../../../db/prepared';
import { MemoryReadCache } from './read-cache';

/**
 * The iCalendar feeds (calendar/events.ics and event.ics), built once and remembered per database.
 * A feed shows a season's row and the season's calendar events. So, per call, one read of two data
 * versions tells whether a remembered feed is current:
 *   - `calendar`, bumped by bumpCalendarVersion in the transaction of every write to calendar_events
 *     (season-calendar.ts replaceCalendarIn, whoever calls it: admin API, CLI, demo seed, any process);
 *   - `war`, bumped by triggers on every write to the seasons (and the rest of the war data). While
 *     it holds, the season a reference (y2s4, gutsAndGlory, 7) names is remembered too; when it
 *     moved (mostly a war snapshot), the season's row is read again, and a feed built from the same
 *     row still holds.
 * A hit loads no event and builds nothing. Feeds are kept by season id, so the spellings of a
 * reference share one build.
 */
interface TFeedEntry {
  calendarVersion: number;
  /** The season row it was built from (seasonFingerprint). */
  season: string;
  text: string;
}

interface TSeasonEntry<TSeason> {
  warVersion: number;
  row: TSeason;
  fingerprint: string;
}

interface TDataVersions {
  war: number;
  calendar: number;
}

/** A season's feed of 2,000 events (the most a calendar holds) is about 0.7 MB, one event's about 1 KB. */
const MAX_FEEDS = 512;
const MAX_FEED_BYTES = 16 * 1024 * 1024;
/** References that named a season: a few spellings of each. */
const MAX_REFERENCES = 1024;

interface TFeedMemo {
  feeds: MemoryReadCache;
  seasons: MemoryReadCache;
  /** Builds under way, by feed and versions: concurrent misses of one feed share one build. */
  building: Map<string, Promise<string>>;
  builds: number;
}

function memoOf(db: TDb): TFeedMemo {
  return perDatabase(db, 'calendar.feedMemo', () => ({
    feeds: new MemoryReadCache({ maxEntries: MAX_FEEDS, maxBytes: MAX_FEED_BYTES, ttlMs: Number.POSITIVE_INFINITY }),
    seasons: new MemoryReadCache({ maxEntries: MAX_REFERENCES, ttlMs: Number.POSITIVE_INFINITY }),
    building: new Map(),
    builds: 0,
  }));
}

const CALENDAR_VERSION = 'calendar';

/** Bumps the `calendar` data version: call it inside the transaction of every write to calendar_events. */
export async function bumpCalendarVersion(tx: TDb): Promise<void> {
  await tx
    .insert(dataVersions)
    .values({ name: CALENDAR_VERSION, version: 1 })
    .onConflictDoUpdate({ target: dataVersions.name, set: { version: sql`${dataVersions.version} + 1` } })
    .run();
}

async function readDataVersions(db: TDb): Promise<TDataVersions> {
  const query = prepared(db, 'calendar.dataVersions', (d) =>
    d
      .select({ name: dataVersions.name, version: dataVersions.version })
      .from(dataVersions)
      .where(inArray(dataVersions.name, ['war', CALENDAR_VERSION]))
      .prepare(),
  );
  const versions: TDataVersions = { war: 0, calendar: 0 };
  for (const row of await query.all()) versions[row.name === 'war' ? 'war' : 'calendar'] = row.version;
  return versions;
}

/** The season `ref` names, remembered while the war data version holds; an unknown one's 404 is not remembered. */
async function seasonOf<TSeason>(
  memo: TFeedMemo,
  ref: string,
  warVersion: number,
  resolveSeason: (ref: string) => Promise<TSeason>,
): Promise<TSeasonEntry<TSeason>> {
  const known = memo.seasons.get<TSeasonEntry<TSeason>>(ref);
  if (known?.warVersion === warVersion) return known;
  const row = await resolveSeason(ref);
  const entry = { warVersion, row, fingerprint: JSON.stringify(row) };
  memo.seasons.set(ref, entry);
  return entry;
}

/**
 * The feed of the season `seasonRef` names, or of its event `eventId`: remembered, or built by
 * `feed.build` from the season's row, which `feed.resolveSeason` reads (the war domain's). Errors
 * (404s) are not remembered.
 */
export async function memoizedFeed<TSeason extends { id: string }>(
  db: TDb,
  input: { seasonRef: string; eventId: string | undefined },
  feed: { resolveSeason: (ref: string) => Promise<TSeason>; build: (season: TSeason) => Promise<string> },
): Promise<string> {
  // Read before building: a write landing in between leaves a newer feed under older versions, never the reverse.
  const versions = await readDataVersions(db);
  const memo = memoOf(db);
  const season = await seasonOf(memo, input.seasonRef, versions.war, feed.resolveSeason);
  const key = `${season.row.id}\n${input.eventId ?? ''}`;
  const entry = memo.feeds.get<TFeedEntry>(key);
  if (entry && entry.calendarVersion === versions.calendar && entry.season === season.fingerprint) return entry.text;

  const buildKey = `${key}\n${versions.calendar}\n${season.fingerprint}`;
  let pending = memo.building.get(buildKey);
  if (!pending) {
    pending = (async () => {
      const text = await feed.build(season.row);
      memo.builds++;
      memo.feeds.set<TFeedEntry>(
        key,
        { calendarVersion: versions.calendar, season: season.fingerprint, text },
        { bytes: Buffer.byteLength(text) },
      );
      return text;
    })().finally(() => memo.building.delete(buildKey));
    memo.building.set(buildKey, pending);
  }
  return pending;
}

/** How many feeds were built for this database: what the memo saves, for tests and diagnostics. */
export function calendarFeedBuilds(db: TDb): number {
  return memoOf(db).builds;
}
