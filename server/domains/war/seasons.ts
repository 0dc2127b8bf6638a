/** Seasons: stored rows, the current season, lookups by id, key or number, and the community seasons.json format. */
import { asc, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { seasons } from '../../../db/schema';
import { AppError, type TIssue } from '../../errors';
import type { TSeason, TSeasonInput } from './schemas';

export type TSeasonRow = typeof seasons.$inferSelect;

const DAY_MS = 86_400_000;

export function dayStartMs(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

export function toSeason(row: TSeasonRow, now: Date): TSeason {
  const nowMs = now.getTime();
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    number: row.number,
    startDate: row.startDate,
    endDate: row.endDate,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: nowMs < row.startsAt.getTime() ? 'upcoming' : nowMs < row.endsAt.getTime() ? 'active' : 'ended',
  };
}

/** "gutsAndGlory" → "Guts and Glory"; any id of the community data set alike ("dragonsBack-old-1" → "Dragons Back Old 1"). */
export function nameFromKey(key: string): string {
  const small = new Set(['a', 'an', 'and', 'of', 'the', 'in', 'into', 'on', 'to']);
  const words = key
    .replace(/[-_.]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  return words
    .map((word, index) => {
      const lower = word.toLowerCase();
      return index > 0 && small.has(lower) ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

/**
 * Reads the community data set's `seasons.json` (seasons keyed by key, with `alternativeName`,
 * `startDate`, `endDate` and sometimes `index`). The number is `index` when given, else the position
 * in the file, which is how the data set numbers them (release = 0).
 */
export function seasonsFromCommunityFormat(data: unknown): TSeasonInput[] {
  if (!isCommunitySeasons(data)) throw new AppError('BAD_REQUEST', 'Not a community seasons.json object');
  return Object.entries(data).map(([key, value], position) => {
    const entry = value as Record<string, unknown>;
    return {
      id: String(entry.alternativeName ?? ''),
      key: typeof entry.id === 'string' ? entry.id : key,
      name: typeof entry.name === 'string' ? entry.name : nameFromKey(typeof entry.id === 'string' ? entry.id : key),
      number: typeof entry.index === 'number' ? entry.index : position,
      startDate: String(entry.startDate ?? ''),
      endDate: String(entry.endDate ?? ''),
    } as TSeasonInput;
  });
}

/** True for the community format: an object whose values are all season records with dates (missing names are reported by validation). */
export function isCommunitySeasons(data: unknown): data is Record<string, Record<string, unknown>> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const values = Object.values(data);
  return (
    values.length > 0 &&
    values.every((value) => value && typeof value === 'object' && 'alternativeName' in value && 'startDate' in value)
  );
}

/**
 * Checks a batch of seasons against each other and the stored ones (ids, keys and numbers are each
 * unique). Returns issues rather than throwing so callers can report everything at once.
 */
export async function checkSeasons(db: TDb, input: TSeasonInput[], pathPrefix: string): Promise<TIssue[]> {
  const issues: TIssue[] = [];
  const seen = { id: new Map<string, number>(), key: new Map<string, number>(), number: new Map<number, number>() };
  input.forEach((season, index) => {
    const key = season.key ?? season.id;
    for (const [kind, value] of [
      ['id', season.id],
      ['key', key],
      ['number', season.number],
    ] as const) {
      const map = seen[kind] as Map<string | number, number>;
      if (map.has(value))
        issues.push({
          path: `${pathPrefix}[${index}].${kind}`,
          message: `duplicates ${pathPrefix}[${map.get(value)}]`,
        });
      else map.set(value, index);
    }
  });
  if (input.length === 0) return issues;
  const clashing = await db
    .select({ id: seasons.id, key: seasons.key, number: seasons.number })
    .from(seasons)
    .where(
      or(
        inArray(
          seasons.key,
          input.map((season) => season.key ?? season.id),
        ),
        inArray(
          seasons.number,
          input.map((season) => season.number),
        ),
      ),
    )
    .all();
  input.forEach((season, index) => {
    for (const other of clashing) {
      if (other.id === season.id) continue;
      if (other.key === (season.key ?? season.id)) {
        issues.push({ path: `${pathPrefix}[${index}].key`, message: `is already used by season ${other.id}` });
      }
      if (other.number === season.number) {
        issues.push({ path: `${pathPrefix}[${index}].number`, message: `is already used by season ${other.id}` });
      }
    }
  });
  return issues;
}

/** Inserts or updates seasons by id. Call inside a transaction after checkSeasons found nothing. */
export async function writeSeasons(tx: TDb, input: TSeasonInput[]): Promise<void> {
  for (const season of input) {
    const key = season.key ?? season.id;
    const values = {
      key,
      name: season.name ?? nameFromKey(key),
      number: season.number,
      startDate: season.startDate,
      endDate: season.endDate,
      startsAt: new Date(dayStartMs(season.startDate)),
      endsAt: new Date(dayStartMs(season.endDate) + DAY_MS),
    };
    await tx
      .insert(seasons)
      .values({ id: season.id, ...values })
      .onConflictDoUpdate({ target: seasons.id, set: values })
      .run();
  }
}

/** Finds a season by id (any case), key or number; 404 when none matches. */
export async function resolveSeason(db: TDb, ref: string | number): Promise<TSeasonRow> {
  const text = String(ref).trim();
  let row: TSeasonRow | undefined;
  if (/^\d{1,9}$/.test(text)) {
    row = await db
      .select()
      .from(seasons)
      .where(eq(seasons.number, Number(text)))
      .get();
  } else {
    row =
      (await db.select().from(seasons).where(eq(seasons.id, text.toLowerCase())).get()) ??
      (await db.select().from(seasons).where(eq(seasons.key, text)).get());
  }
  if (!row) throw new AppError('NOT_FOUND', `Unknown season "${text}"`);
  return row;
}

/**
 * The current season: the latest-started one still running at `now` (seasons in the data set can
 * overlap by days); between seasons, the one that ended last. Null when no season has started.
 */
export async function findCurrentSeason(db: TDb, now: Date): Promise<TSeasonRow | undefined> {
  const query = prepared(db, 'seasons.current', (d) =>
    d
      .select()
      .from(seasons)
      // Placeholders in conditions are not mapped by the column: timestamps are bound as epoch ms.
      .where(lte(seasons.startsAt, sql.placeholder('nowMs')))
      .orderBy(desc(sql`${seasons.endsAt} > ${sql.placeholder('nowMs')}`), desc(seasons.startsAt))
      .limit(1)
      .prepare(),
  );
  return query.get({ nowMs: now.getTime() });
}

export async function requireCurrentSeason(db: TDb, now: Date): Promise<TSeasonRow> {
  const row = await findCurrentSeason(db, now);
  if (!row) throw new AppError('NOT_FOUND', 'No season has started yet');
  return row;
}

export async function listSeasonRows(db: TDb): Promise<TSeasonRow[]> {
  return db.select().from(seasons).orderBy(asc(seasons.startsAt), asc(seasons.number)).all();
}

/** Whether the instant falls inside the season (snapshots must). */
export function seasonCovers(row: TSeasonRow, atMs: number): boolean {
  return row.startsAt.getTime() <= atMs && atMs < row.endsAt.getTime();
}
