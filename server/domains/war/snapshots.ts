/** War snapshots: checking and recording them (admin API, imports) and the batch writer the demo seed shares. */
import { and, between, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import {
  warCompanies,
  warCompanyScores,
  warHotspots,
  warSnapshots,
  warZoneControl,
  warZones,
} from '../../../db/schema';
import { insertInChunks } from '../../../db/bulk';
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
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
 * the demo seed generates valid data). The snapshot ids are assigned here, after the highest ever
 * used (the table is AUTOINCREMENT: retention's deletions never hand an id out twice), so that every
 * table is written with a few multi-row statements (db/bulk.ts) instead of a statement per row: a
 * season of demo snapshots is ~45,000 rows, one round trip each on a libSQL server.
 */
export async function writeSnapshotBatch(
  deps: TDepsOf<'db'>,
  input: { snapshots: TPreparedSnapshot[]; onProgress?: TProgressListener },
): Promise<number[]> {
  const tx = deps.db;
  const report = (stage: string) =>
    input.onProgress && ((done: number, total: number) => input.onProgress!(stage, done, total));
  if (input.snapshots.length === 0) return [];
  const highest = await tx.get<{ id: number | null }>(
    sql`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'war_snapshots'), 0), coalesce((SELECT max(id) FROM war_snapshots), 0)) AS id`,
  );
  const firstId = Number(highest?.id ?? 0) + 1;
  const ids = input.snapshots.map((_, index) => firstId + index);
  await insertInChunks(
    tx,
    warSnapshots,
    input.snapshots.map((snapshot, index) => ({
      id: ids[index]!,
      seasonId: snapshot.seasonId,
      capturedAt: new Date(snapshot.capturedAtMs),
    })),
    report('writing war snapshots'),
  );
  await insertInChunks(
    tx,
    warCompanyScores,
    input.snapshots.flatMap((snapshot, index) =>
      snapshot.companies.map((entry) => ({ snapshotId: ids[index]!, companyId: entry.companyId, score: entry.score })),
    ),
    report('writing company scores'),
  );
  await insertInChunks(
    tx,
    warZoneControl,
    input.snapshots.flatMap((snapshot, index) =>
      snapshot.zones.map((zone) => ({
        snapshotId: ids[index]!,
        zoneId: zone.zoneId,
        controllerId: zone.controllerId,
        scores: zone.scores,
      })),
    ),
    report('writing zone control'),
  );
  await insertInChunks(
    tx,
    warHotspots,
    input.snapshots.flatMap((snapshot, index) =>
      snapshot.hotspots.map((hotspot) => ({
        snapshotId: ids[index]!,
        zoneId: hotspot.zoneId,
        name: hotspot.name,
        kind: hotspot.kind,
        endsAt: hotspot.endsAtMs === null ? null : new Date(hotspot.endsAtMs),
      })),
    ),
    report('writing hotspots'),
  );
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

/**
 * The instants (`season@ms`) already recorded among those the inputs name: one range query per
 * season instead of one lookup per snapshot (a season's import is thousands of them, and each is a
 * round trip on a libSQL server).
 */
async function storedSnapshotInstants(
  tx: TDb,
  inputs: TSnapshotInput[],
  seasons: Map<string, TSeasonRow | null>,
): Promise<Set<string>> {
  const ranges = new Map<string, { from: number; to: number }>();
  for (const input of inputs) {
    const season = seasons.get(String(input.season));
    const at = Date.parse(input.capturedAt);
    if (!season || Number.isNaN(at)) continue;
    const range = ranges.get(season.id);
    ranges.set(
      season.id,
      range ? { from: Math.min(range.from, at), to: Math.max(range.to, at) } : { from: at, to: at },
    );
  }
  const stored = new Set<string>();
  for (const [seasonId, range] of ranges) {
    const rows = await tx
      .select({ capturedAt: warSnapshots.capturedAt })
      .from(warSnapshots)
      .where(
        and(
          eq(warSnapshots.seasonId, seasonId),
          between(warSnapshots.capturedAt, new Date(range.from), new Date(range.to)),
        ),
      )
      .all();
    for (const row of rows) stored.add(`${seasonId}@${row.capturedAt.getTime()}`);
  }
  return stored;
}

/** recordSnapshots inside the caller's transaction (the import of a war file). */
export async function recordSnapshotsIn(
  tx: TDb,
  inputs: TSnapshotInput[],
  now: Date,
  pathOf: (index: number) => string,
  onProgress?: TProgressListener,
): Promise<{ ids: number[]; seasonIds: string[] }> {
  const zoneIds = new Set((await tx.select({ id: warZones.id }).from(warZones).all()).map((row) => row.id));
  const companyIds = new Set((await tx.select({ id: warCompanies.id }).from(warCompanies).all()).map((row) => row.id));
  const seasonCache = new Map<string, TSeasonRow | null>();
  for (const input of inputs) {
    const ref = String(input.season);
    if (!seasonCache.has(ref)) seasonCache.set(ref, await resolveSeason(tx, ref).catch(() => null));
  }
  const storedInstants = await storedSnapshotInstants(tx, inputs, seasonCache);
  const issues: TIssue[] = [];
  const prepared: TPreparedSnapshot[] = [];
  const seenInstants = new Map<string, number>();

  for (const [index, input] of inputs.entries()) {
    const at = (field: string) => (pathOf(index) ? `${pathOf(index)}.${field}` : field);
    const before = issues.length;
    const ref = String(input.season);
    const season = seasonCache.get(ref);
    const capturedAtMs = Date.parse(input.capturedAt);
    if (!season) issues.push({ path: at('season'), message: `unknown season "${ref}"` });
    else if (!seasonCovers(season, capturedAtMs)) {
      issues.push({
        path: at('capturedAt'),
        message: `is outside season ${season.id} (${season.startDate} to ${season.endDate})`,
      });
    }
    if (capturedAtMs > now.getTime() + FUTURE_TOLERANCE_MS)
      issues.push({ path: at('capturedAt'), message: 'is in the future' });
    input.companies.forEach((entry, position) => {
      if (!companyIds.has(entry.companyId))
        issues.push({ path: at(`companies[${position}].companyId`), message: `unknown company "${entry.companyId}"` });
    });
    input.zones.forEach((zone, position) => {
      if (!zoneIds.has(zone.zoneId))
        issues.push({ path: at(`zones[${position}].zoneId`), message: `unknown zone "${zone.zoneId}"` });
      if (zone.controlledBy !== null && !companyIds.has(zone.controlledBy)) {
        issues.push({ path: at(`zones[${position}].controlledBy`), message: `unknown company "${zone.controlledBy}"` });
      }
      for (const companyId of Object.keys(zone.scores)) {
        if (!companyIds.has(companyId))
          issues.push({
            path: at(`zones[${position}].scores.${companyId}`),
            message: `unknown company "${companyId}"`,
          });
      }
    });
    input.hotspots.forEach((hotspot, position) => {
      if (!zoneIds.has(hotspot.zoneId))
        issues.push({ path: at(`hotspots[${position}].zoneId`), message: `unknown zone "${hotspot.zoneId}"` });
      if (hotspot.endsAt !== undefined && Date.parse(hotspot.endsAt) <= capturedAtMs) {
        issues.push({ path: at(`hotspots[${position}].endsAt`), message: 'must be after capturedAt' });
      }
    });
    if (season) {
      const instant = `${season.id}@${capturedAtMs}`;
      const first = seenInstants.get(instant);
      if (first !== undefined)
        issues.push({
          path: at('capturedAt'),
          message: `duplicates the snapshot at ${pathOf(first) || `index ${first}`}`,
        });
      seenInstants.set(instant, index);
      if (storedInstants.has(instant))
        issues.push({
          path: at('capturedAt'),
          message: `a snapshot of season ${season.id} at ${new Date(capturedAtMs).toISOString()} already exists`,
        });
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
  onProgress?.('checking war snapshots', inputs.length, inputs.length);
  const ids = await writeSnapshotBatch({ db: tx }, { snapshots: prepared, onProgress });
  return { ids, seasonIds: [...new Set(prepared.map((snapshot) => snapshot.seasonId))] };
}
