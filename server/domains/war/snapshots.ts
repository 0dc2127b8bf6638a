/** War snapshots: checking and recording them (admin API, imports) and the batch writer the demo seed shares. */
import { and, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { warCompanies, warCompanyScores, warHotspots, warSnapshots, warZoneControl, warZones } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError, type TIssue } from '../../errors';
import { resolveSeason, seasonCovers, type TSeasonRow } from './seasons';
import type { TSnapshotInput } from './schemas';

/** A validated snapshot, ready for the batch writer. */
export interface TPreparedSnapshot {
  seasonId: string;
  capturedAtMs: number;
  companies: { companyId: string; score: number }[];
  zones: { zoneId: string; controllerId: string | null; scores: Record<string, number> }[];
  hotspots: { zoneId: string; name: string; kind: string; endsAtMs: number | null }[];
}

/** How far ahead of the server clock a snapshot may be stamped (clock skew of the collector). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Writes prepared snapshots. Call inside a transaction; performs no checks (recordSnapshots checks,
 * the demo seed generates valid data). Uses one prepared statement per table, run per row: measured
 * about 5x faster than drizzle multi-row inserts for the seed's ~50,000 rows (the statement is
 * compiled once; building large VALUES lists costs more than it saves).
 */
export async function writeSnapshotBatch(deps: TDepsOf<'db'>, input: { snapshots: TPreparedSnapshot[] }): Promise<number[]> {
  const tx = deps.db;
  const insertSnapshot = tx
    .insert(warSnapshots)
    .values({ seasonId: sql.placeholder('seasonId'), capturedAt: sql.placeholder('capturedAt') })
    .returning({ id: warSnapshots.id })
    .prepare();
  const insertScore = tx
    .insert(warCompanyScores)
    .values({ snapshotId: sql.placeholder('snapshotId'), companyId: sql.placeholder('companyId'), score: sql.placeholder('score') })
    .prepare();
  const insertZone = tx
    .insert(warZoneControl)
    .values({
      snapshotId: sql.placeholder('snapshotId'),
      zoneId: sql.placeholder('zoneId'),
      controllerId: sql.placeholder('controllerId'),
      scores: sql.placeholder('scores'),
    })
    .prepare();
  const insertHotspot = tx
    .insert(warHotspots)
    .values({
      snapshotId: sql.placeholder('snapshotId'),
      zoneId: sql.placeholder('zoneId'),
      name: sql.placeholder('name'),
      kind: sql.placeholder('kind'),
      endsAt: sql.placeholder('endsAt'),
    })
    .prepare();
  const ids: number[] = [];
  for (const snapshot of input.snapshots) {
    const row = (await insertSnapshot.get({ seasonId: snapshot.seasonId, capturedAt: new Date(snapshot.capturedAtMs) })) as { id: number };
    const snapshotId = row.id;
    ids.push(snapshotId);
    for (const entry of snapshot.companies) await insertScore.run({ snapshotId, companyId: entry.companyId, score: entry.score });
    for (const zone of snapshot.zones) {
      await insertZone.run({ snapshotId, zoneId: zone.zoneId, controllerId: zone.controllerId, scores: zone.scores });
    }
    for (const hotspot of snapshot.hotspots) {
      await insertHotspot.run({ snapshotId, zoneId: hotspot.zoneId, name: hotspot.name, kind: hotspot.kind, endsAt: hotspot.endsAtMs === null ? null : new Date(hotspot.endsAtMs) });
    }
  }
  return ids;
}

/**
 * Records snapshots after checking each against the database: known season (and a capturedAt inside
 * it, not in the future), known zones and companies, no second snapshot at the same instant. Any
 * problem is a 400 listing every issue, and nothing is written.
 */
export async function recordSnapshots(
  deps: TDepsOf<'db' | 'now'>,
  input: { snapshots: TSnapshotInput[]; pathOf?: (index: number) => string },
): Promise<{ ids: number[]; seasonIds: string[] }> {
  const now = deps.now();
  const pathOf = input.pathOf ?? ((index: number) => `snapshots[${index}]`);
  return transaction(deps.db, (tx) => recordSnapshotsIn(tx, input.snapshots, now, pathOf));
}

/** recordSnapshots inside the caller's transaction (the import of a war file). */
export async function recordSnapshotsIn(
  tx: TDb,
  inputs: TSnapshotInput[],
  now: Date,
  pathOf: (index: number) => string,
): Promise<{ ids: number[]; seasonIds: string[] }> {
  const zoneIds = new Set((await tx.select({ id: warZones.id }).from(warZones).all()).map((row) => row.id));
  const companyIds = new Set((await tx.select({ id: warCompanies.id }).from(warCompanies).all()).map((row) => row.id));
  const seasonCache = new Map<string, TSeasonRow | null>();
  const issues: TIssue[] = [];
  const prepared: TPreparedSnapshot[] = [];
  const seenInstants = new Map<string, number>();

  for (const [index, input] of inputs.entries()) {
    const at = (field: string) => (pathOf(index) ? `${pathOf(index)}.${field}` : field);
    const before = issues.length;
    const ref = String(input.season);
    if (!seasonCache.has(ref)) seasonCache.set(ref, await resolveSeason(tx, ref).catch(() => null));
    const season = seasonCache.get(ref);
    const capturedAtMs = Date.parse(input.capturedAt);
    if (!season) issues.push({ path: at('season'), message: `unknown season "${ref}"` });
    else if (!seasonCovers(season, capturedAtMs)) {
      issues.push({ path: at('capturedAt'), message: `is outside season ${season.id} (${season.startDate} to ${season.endDate})` });
    }
    if (capturedAtMs > now.getTime() + FUTURE_TOLERANCE_MS) issues.push({ path: at('capturedAt'), message: 'is in the future' });
    input.companies.forEach((entry, position) => {
      if (!companyIds.has(entry.companyId)) issues.push({ path: at(`companies[${position}].companyId`), message: `unknown company "${entry.companyId}"` });
    });
    input.zones.forEach((zone, position) => {
      if (!zoneIds.has(zone.zoneId)) issues.push({ path: at(`zones[${position}].zoneId`), message: `unknown zone "${zone.zoneId}"` });
      if (zone.controlledBy !== null && !companyIds.has(zone.controlledBy)) {
        issues.push({ path: at(`zones[${position}].controlledBy`), message: `unknown company "${zone.controlledBy}"` });
      }
      for (const companyId of Object.keys(zone.scores)) {
        if (!companyIds.has(companyId)) issues.push({ path: at(`zones[${position}].scores.${companyId}`), message: `unknown company "${companyId}"` });
      }
    });
    input.hotspots.forEach((hotspot, position) => {
      if (!zoneIds.has(hotspot.zoneId)) issues.push({ path: at(`hotspots[${position}].zoneId`), message: `unknown zone "${hotspot.zoneId}"` });
      if (hotspot.endsAt !== undefined && Date.parse(hotspot.endsAt) <= capturedAtMs) {
        issues.push({ path: at(`hotspots[${position}].endsAt`), message: 'must be after capturedAt' });
      }
    });
    if (season) {
      const instant = `${season.id}@${capturedAtMs}`;
      const first = seenInstants.get(instant);
      if (first !== undefined) issues.push({ path: at('capturedAt'), message: `duplicates the snapshot at ${pathOf(first) || 'index ' + first}` });
      seenInstants.set(instant, index);
      const stored = await tx
        .select({ id: warSnapshots.id })
        .from(warSnapshots)
        .where(and(eq(warSnapshots.seasonId, season.id), eq(warSnapshots.capturedAt, new Date(capturedAtMs))))
        .get();
      if (stored) issues.push({ path: at('capturedAt'), message: `a snapshot of season ${season.id} at ${new Date(capturedAtMs).toISOString()} already exists` });
    }
    if (issues.length > before || !season) continue;
    prepared.push({
      seasonId: season.id,
      capturedAtMs,
      companies: input.companies,
      zones: input.zones.map((zone) => ({ zoneId: zone.zoneId, controllerId: zone.controlledBy, scores: zone.scores })),
      hotspots: input.hotspots.map((hotspot) => ({
        zoneId: hotspot.zoneId,
        name: hotspot.name,
        kind: hotspot.kind,
        endsAtMs: hotspot.endsAt === undefined ? null : Date.parse(hotspot.endsAt),
      })),
    });
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw new AppError('BAD_REQUEST', `Invalid snapshot: ${first.path}: ${first.message}${more}`, { issues });
  }
  const ids = await writeSnapshotBatch({ db: tx }, { snapshots: prepared });
  return { ids, seasonIds: [...new Set(prepared.map((snapshot) => snapshot.seasonId))] };
}
