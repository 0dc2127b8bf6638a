/** The war's state: the newest snapshot of a season with names resolved, and the seasons with their coverage. */
import { asc, count, desc, eq, max, min, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import {
  warCompanies,
  warCompanyScores,
  warHotspots,
  warSnapshots,
  warZoneControl,
  warZones,
} from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { warMemo } from '../../infra/cache/war-memo';
import {
  findCurrentSeason,
  listSeasonRows,
  requireCurrentSeason,
  resolveSeason,
  toSeason,
  type TSeasonRow,
} from './seasons';
import type { TSeasonList, TWarState } from './schemas';

/** Every company's name and colour by id. */
export async function companyNames(deps: TDepsOf<'db'>): Promise<Map<string, { name: string; color: string }>> {
  const db = deps.db;
  const rows = await prepared(db, 'war.companies', (d) => d.select().from(warCompanies).prepare()).all();
  return new Map(rows.map((row) => [row.id, { name: row.name, color: row.color }]));
}

/** The newest snapshot of a season with every id resolved to its name. */
async function seasonState(db: TDb, season: TSeasonRow, now: Date): Promise<TWarState> {
  const empty: TWarState = { season: toSeason(season, now), capturedAt: null, companies: [], zones: [], hotspots: [] };
  const q = prepared(db, 'war.seasonState', (d) => {
    const snapshotId = sql.placeholder('snapshotId');
    return {
      snapshot: d
        .select()
        .from(warSnapshots)
        .where(eq(warSnapshots.seasonId, sql.placeholder('seasonId')))
        .orderBy(desc(warSnapshots.capturedAt))
        .limit(1)
        .prepare(),
      zones: d.select().from(warZones).prepare(),
      scores: d.select().from(warCompanyScores).where(eq(warCompanyScores.snapshotId, snapshotId)).prepare(),
      control: d
        .select()
        .from(warZoneControl)
        .where(eq(warZoneControl.snapshotId, snapshotId))
        .orderBy(asc(warZoneControl.zoneId))
        .prepare(),
      hotspots: d
        .select()
        .from(warHotspots)
        .where(eq(warHotspots.snapshotId, snapshotId))
        .orderBy(asc(warHotspots.id))
        .prepare(),
    };
  });
  const snapshot = await q.snapshot.get({ seasonId: season.id });
  if (!snapshot) return empty;
  const companies = await companyNames({ db });
  const zoneNames = new Map((await q.zones.all()).map((row) => [row.id, row.name]));
  const scores = await q.scores.all({ snapshotId: snapshot.id });
  const zones = await q.control.all({ snapshotId: snapshot.id });
  const hotspots = await q.hotspots.all({ snapshotId: snapshot.id });
  const controlled = new Map<string, number>();
  for (const zone of zones)
    if (zone.controllerId) controlled.set(zone.controllerId, (controlled.get(zone.controllerId) ?? 0) + 1);
  const company = (id: string) => companies.get(id) ?? { name: id, color: '#808080' };
  const standings = scores
    .map((entry) => ({
      id: entry.companyId,
      ...company(entry.companyId),
      score: entry.score,
      zonesControlled: controlled.get(entry.companyId) ?? 0,
    }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .map((entry, index) => ({ ...entry, rank: index + 1 }));
  return {
    ...empty,
    capturedAt: snapshot.capturedAt.toISOString(),
    companies: standings,
    zones: zones.map((zone) => ({
      id: zone.zoneId,
      name: zoneNames.get(zone.zoneId) ?? zone.zoneId,
      controller: zone.controllerId ? { id: zone.controllerId, ...company(zone.controllerId) } : null,
      scores: Object.entries(zone.scores)
        .map(([companyId, score]) => ({ companyId, name: company(companyId).name, score }))
        .sort((a, b) => b.score - a.score || a.companyId.localeCompare(b.companyId)),
    })),
    hotspots: hotspots.map((hotspot) => ({
      zoneId: hotspot.zoneId,
      zoneName: zoneNames.get(hotspot.zoneId) ?? hotspot.zoneId,
      name: hotspot.name,
      kind: hotspot.kind,
      endsAt: hotspot.endsAt ? hotspot.endsAt.toISOString() : null,
    })),
  };
}

/** Remembered until the next war write or season boundary (war-memo.ts): most calls cost one read. */
export async function latestState(deps: TDepsOf<'db' | 'now'>): Promise<TWarState> {
  const { db } = deps;
  const now = deps.now();
  return warMemo(db, 'latest', now, async () => {
    const season = await requireCurrentSeason(db, now);
    const state = await seasonState(db, season, now);
    if (state.capturedAt === null)
      throw new AppError('NOT_FOUND', `No war snapshot recorded yet for the current season ${season.id}`);
    return state;
  });
}

/** The newest state of a season given by id, key or number; 404 for an unknown season. */
export async function stateOfSeason(
  deps: TDepsOf<'db' | 'now'>,
  input: { season: string | number },
): Promise<TWarState> {
  const now = deps.now();
  return seasonState(deps.db, await resolveSeason(deps.db, input.season), now);
}

/** Every season with its snapshot coverage, and which one is current. */
export async function listSeasons(deps: TDepsOf<'db' | 'now'>): Promise<TSeasonList> {
  const { db } = deps;
  const now = deps.now();
  const rows = await listSeasonRows(db);
  const stats = await db
    .select({
      seasonId: warSnapshots.seasonId,
      n: count(),
      first: min(warSnapshots.capturedAt),
      last: max(warSnapshots.capturedAt),
    })
    .from(warSnapshots)
    .groupBy(warSnapshots.seasonId)
    .all();
  const bySeason = new Map(stats.map((row) => [row.seasonId, row]));
  const current = await findCurrentSeason(db, now);
  return {
    currentSeasonId: current?.id ?? null,
    items: rows.map((row) => {
      const stat = bySeason.get(row.id);
      return {
        ...toSeason(row, now),
        snapshotCount: stat?.n ?? 0,
        firstSnapshotAt: stat?.first ? stat.first.toISOString() : null,
        lastSnapshotAt: stat?.last ? stat.last.toISOString() : null,
        current: row.id === current?.id,
      };
    }),
  };
}
