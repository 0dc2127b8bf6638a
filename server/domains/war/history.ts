/** War history: a season's company standings over time, in fixed-size buckets per range. */
import { and, count, eq, gte, inArray, isNotNull, lt, max, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { warCompanyScores, warSnapshots, warZoneControl } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { warMemo } from '../../infra/cache/war-memo';
import { requireCurrentSeason, resolveSeason, toSeason } from './seasons';
import { companyNames } from './state';
import type { THistoryRange, TWarHistory } from './schemas';

/** DESIGN: `1h` by the minute, `1d` by 15 minutes, `7d` by the hour. */
export const HISTORY_RANGES = {
  '1h': { bucketMs: 60_000, buckets: 60 },
  '1d': { bucketMs: 15 * 60_000, buckets: 96 },
  '7d': { bucketMs: 3_600_000, buckets: 168 },
} as const satisfies Record<THistoryRange, { bucketMs: number; buckets: number }>;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The history's fixed-shape queries, prepared once per database (the window is all placeholders). */
function historyQueries(db: TDb) {
  return prepared(db, 'war.history', (d) => {
    const inWindow = and(
      eq(warSnapshots.seasonId, sql.placeholder('seasonId')),
      // Placeholders in conditions are not mapped by the column: timestamps are bound as epoch ms.
      gte(warSnapshots.capturedAt, sql.placeholder('fromMs')),
      lt(warSnapshots.capturedAt, sql.placeholder('toMs')),
    );
    const bucketOf = sql<number>`cast((${warSnapshots.capturedAt} - ${sql.placeholder('fromMs')}) / ${sql.placeholder('bucketMs')} as integer)`;
    return {
      last: d
        .select({ at: max(warSnapshots.capturedAt) })
        .from(warSnapshots)
        .where(eq(warSnapshots.seasonId, sql.placeholder('seasonId')))
        .prepare(),
      // SQLite returns the bare column `id` from the row holding max(captured_at): the bucket's last snapshot.
      perBucket: d
        .select({
          bucket: bucketOf,
          n: count(),
          lastAt: sql<number>`max(${warSnapshots.capturedAt})`,
          lastId: warSnapshots.id,
        })
        .from(warSnapshots)
        .where(inWindow)
        .groupBy(bucketOf)
        .prepare(),
      perCompany: d
        .select({
          bucket: bucketOf,
          companyId: warCompanyScores.companyId,
          average: sql<number>`avg(${warCompanyScores.score})`,
          min: sql<number>`min(${warCompanyScores.score})`,
          max: sql<number>`max(${warCompanyScores.score})`,
        })
        .from(warSnapshots)
        .innerJoin(warCompanyScores, eq(warCompanyScores.snapshotId, warSnapshots.id))
        .where(inWindow)
        .groupBy(bucketOf, warCompanyScores.companyId)
        .prepare(),
    };
  });
}

/**
 * Buckets a season's snapshots. Buckets are aligned to whole minutes, quarter-hours or hours (UTC)
 * and the window ends with the bucket holding the season's last snapshot, so a range always has the
 * same number of buckets (60, 96, 168); empty buckets are listed with snapshotCount 0. The grouping
 * runs in SQL over the (season_id, captured_at) index; only the bucket aggregates reach JS.
 */
export async function warHistory(
  deps: TDepsOf<'db' | 'now'>,
  input: { range: THistoryRange; season?: string | number },
): Promise<TWarHistory> {
  const { db } = deps;
  const now = deps.now();
  const seasonKey = input.season === undefined ? 'current' : `${typeof input.season}:${input.season}`;
  return warMemo(db, `history/${input.range}/${seasonKey}`, now, () => computeHistory(db, input, now));
}

async function computeHistory(
  db: TDb,
  input: { range: THistoryRange; season?: string | number },
  now: Date,
): Promise<TWarHistory> {
  const season =
    input.season === undefined ? await requireCurrentSeason(db, now) : await resolveSeason(db, input.season);
  const { bucketMs, buckets: bucketCount } = HISTORY_RANGES[input.range];
  const base = { season: toSeason(season, now), range: input.range, bucketSeconds: bucketMs / 1000 };
  const q = historyQueries(db);
  const last = await q.last.get({ seasonId: season.id });
  if (!last?.at) return { ...base, from: null, to: null, lastSnapshotAt: null, buckets: [] };

  const lastMs = last.at.getTime();
  const lastBucketStart = Math.floor(lastMs / bucketMs) * bucketMs;
  const fromMs = lastBucketStart - (bucketCount - 1) * bucketMs;
  const toMs = lastBucketStart + bucketMs;
  const window = { seasonId: season.id, fromMs, toMs, bucketMs };
  const perBucket = await q.perBucket.all(window);
  const names = await companyNames({ db });
  const perCompany = await q.perCompany.all(window);
  const lastIds = perBucket.map((row) => row.lastId);
  const closing = lastIds.length
    ? await db.select().from(warCompanyScores).where(inArray(warCompanyScores.snapshotId, lastIds)).all()
    : [];
  const held = lastIds.length
    ? await db
        .select({ snapshotId: warZoneControl.snapshotId, companyId: warZoneControl.controllerId, n: count() })
        .from(warZoneControl)
        .where(and(inArray(warZoneControl.snapshotId, lastIds), isNotNull(warZoneControl.controllerId)))
        .groupBy(warZoneControl.snapshotId, warZoneControl.controllerId)
        .all()
    : [];

  const closingScore = new Map(closing.map((row) => [`${row.snapshotId}/${row.companyId}`, row.score]));
  const heldCount = new Map(held.map((row) => [`${row.snapshotId}/${row.companyId}`, row.n]));
  const statsByBucket = new Map(perBucket.map((row) => [row.bucket, row]));
  const companiesByBucket = new Map<number, typeof perCompany>();
  for (const row of perCompany) {
    const list = companiesByBucket.get(row.bucket) ?? [];
    list.push(row);
    companiesByBucket.set(row.bucket, list);
  }

  const buckets = Array.from({ length: bucketCount }, (_, index) => {
    const start = fromMs + index * bucketMs;
    const stats = statsByBucket.get(index);
    const companies = (companiesByBucket.get(index) ?? [])
      .map((row) => {
        const company = names.get(row.companyId) ?? { name: row.companyId, color: '#808080' };
        const key = `${stats!.lastId}/${row.companyId}`;
        return {
          id: row.companyId,
          name: company.name,
          color: company.color,
          score: closingScore.get(key) ?? 0,
          average: round2(row.average),
          min: row.min,
          max: row.max,
          zonesControlled: heldCount.get(key) ?? 0,
        };
      })
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return {
      start: new Date(start).toISOString(),
      end: new Date(start + bucketMs).toISOString(),
      snapshotCount: stats?.n ?? 0,
      lastSnapshotAt: stats ? new Date(stats.lastAt).toISOString() : null,
      companies,
    };
  });
  const value = {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    lastSnapshotAt: last.at.toISOString(),
    buckets,
  };
  return { ...base, ...value };
}
