import { and, asc, count, desc, eq, max, min, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { warCompanies, warCompanyScores, warHotspots, warSnapshots, warZoneControl, warZones } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import { AppError, issuesFromZod, type TIssue } from '../../errors';
import { invalidFile } from '../drop/service';
import { warMemo } from '../../infra/cache/war-memo';
import {
  checkSeasons,
  findCurrentSeason,
  listSeasonRows,
  requireCurrentSeason,
  resolveSeason,
  seasonCovers,
  toSeason,
  writeSeasons,
  ZSeasonInput,
  ZSeasonOut,
  ZSeasonRef,
  type TSeasonRow,
} from './seasons';

// ---------- input ----------

const ZSlug = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]{0,47}$/, 'must be 1-48 of a-z 0-9 - starting with a letter');
const ZScore = z.number().min(0, 'must not be negative').max(1e12, 'is too large');
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZZoneInput = z.object({ id: ZSlug, name: z.string().trim().min(1).max(100) });
export const ZCompanyInput = z.object({
  id: ZSlug,
  name: z.string().trim().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb').default('#808080'),
});

function uniqueBy<T>(key: (item: T) => string, what: string) {
  return (items: T[], check: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const value = key(item);
      const first = seen.get(value);
      if (first !== undefined) check.addIssue({ code: 'custom', path: [index, what], message: `duplicates [${first}]` });
      else seen.set(value, index);
    });
  };
}

export const ZWarReferenceInput = z
  .object({
    seasons: z.array(ZSeasonInput).max(500).default([]),
    zones: z.array(ZZoneInput).max(500).superRefine(uniqueBy((zone) => zone.id, 'id')).default([]),
    companies: z.array(ZCompanyInput).max(100).superRefine(uniqueBy((company) => company.id, 'id')).default([]),
  })
  .refine((input) => input.seasons.length + input.zones.length + input.companies.length > 0, {
    message: 'give at least one of seasons, zones, companies',
  });
export type TWarReferenceInput = z.infer<typeof ZWarReferenceInput>;

export const ZSnapshotInput = z.object({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key or number' }),
  capturedAt: ZInstant,
  companies: z
    .array(z.object({ companyId: ZSlug, score: ZScore }))
    .min(1, 'must list at least one company')
    .max(100)
    .superRefine(uniqueBy((entry) => entry.companyId, 'companyId')),
  zones: z
    .array(
      z.object({
        zoneId: ZSlug,
        controlledBy: ZSlug.nullable().meta({ description: 'Controlling company id; null while contested' }),
        scores: z.record(ZSlug, ZScore).default({}).meta({ description: 'Score of each company in the zone, by company id' }),
      }),
    )
    .max(500)
    .superRefine(uniqueBy((entry) => entry.zoneId, 'zoneId'))
    .default([]),
  hotspots: z
    .array(
      z.object({
        zoneId: ZSlug,
        name: z.string().trim().min(1).max(100),
        kind: ZSlug,
        endsAt: ZInstant.optional(),
      }),
    )
    .max(200)
    .default([]),
});
export type TSnapshotInput = z.infer<typeof ZSnapshotInput>;

// ---------- reference ingestion ----------

export async function upsertWarReference(db: TDb, input: TWarReferenceInput): Promise<{ seasons: number; zones: number; companies: number }> {
  return transaction(db, (tx) => upsertWarReferenceIn(tx, input));
}

async function upsertWarReferenceIn(tx: TDb, input: TWarReferenceInput): Promise<{ seasons: number; zones: number; companies: number }> {
  const issues = await checkSeasons(tx, input.seasons, 'seasons');
  if (issues.length > 0) throw new AppError('BAD_REQUEST', `Invalid input: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
  await writeSeasons(tx, input.seasons);
  for (const zone of input.zones) {
    await tx.insert(warZones).values(zone).onConflictDoUpdate({ target: warZones.id, set: { name: zone.name } }).run();
  }
  for (const company of input.companies) {
    await tx
      .insert(warCompanies)
      .values(company)
      .onConflictDoUpdate({ target: warCompanies.id, set: { name: company.name, color: company.color } })
      .run();
  }
  return { seasons: input.seasons.length, zones: input.zones.length, companies: input.companies.length };
}

// ---------- snapshot ingestion ----------

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
export async function writeSnapshotBatch(tx: TDb, snapshots: TPreparedSnapshot[]): Promise<number[]> {
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
  for (const snapshot of snapshots) {
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
  db: TDb,
  inputs: TSnapshotInput[],
  now: Date,
  pathOf: (index: number) => string = (index) => `snapshots[${index}]`,
): Promise<{ ids: number[]; seasonIds: string[] }> {
  return transaction(db, (tx) => recordSnapshotsIn(tx, inputs, now, pathOf));
}

async function recordSnapshotsIn(
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
  const ids = await writeSnapshotBatch(tx, prepared);
  return { ids, seasonIds: [...new Set(prepared.map((snapshot) => snapshot.seasonId))] };
}

// ---------- import files ----------

/** Strict: a misspelt top-level key is an error rather than a file that silently imports nothing. */
export const ZWarImportFile = z
  .object({
    seasons: z.array(ZSeasonInput).max(500).default([]),
    zones: z.array(ZZoneInput).max(500).default([]),
    companies: z.array(ZCompanyInput).max(100).default([]),
    snapshots: z.array(ZSnapshotInput).max(200_000).default([]),
  })
  .strict();

// ---------- output ----------

export const ZCompanyStanding = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  score: z.number(),
  rank: z.number().int().meta({ description: '1 = highest score' }),
  zonesControlled: z.number().int(),
});

export const ZWarState = z.object({
  season: ZSeasonOut,
  capturedAt: z.string().nullable().meta({ description: 'Time of the snapshot; null when the season has none yet' }),
  companies: z.array(ZCompanyStanding),
  zones: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      controller: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
      scores: z.array(z.object({ companyId: z.string(), name: z.string(), score: z.number() })),
    }),
  ),
  hotspots: z.array(z.object({ zoneId: z.string(), zoneName: z.string(), name: z.string(), kind: z.string(), endsAt: z.string().nullable() })),
});
export type TWarState = z.infer<typeof ZWarState>;

export async function companyNames(db: TDb): Promise<Map<string, { name: string; color: string }>> {
  const rows = await prepared(db, 'war.companies', (d) => d.select().from(warCompanies).prepare()).all();
  return new Map(rows.map((row) => [row.id, { name: row.name, color: row.color }]));
}

/** The newest snapshot of a season with every id resolved to its name. */
export async function seasonState(db: TDb, season: TSeasonRow, now: Date): Promise<TWarState> {
  const empty: TWarState = { season: toSeason(season, now), capturedAt: null, companies: [], zones: [], hotspots: [] };
  const q = prepared(db, 'war.seasonState', (d) => {
    const snapshotId = sql.placeholder('snapshotId');
    return {
      snapshot: d.select().from(warSnapshots).where(eq(warSnapshots.seasonId, sql.placeholder('seasonId'))).orderBy(desc(warSnapshots.capturedAt)).limit(1).prepare(),
      zones: d.select().from(warZones).prepare(),
      scores: d.select().from(warCompanyScores).where(eq(warCompanyScores.snapshotId, snapshotId)).prepare(),
      control: d.select().from(warZoneControl).where(eq(warZoneControl.snapshotId, snapshotId)).orderBy(asc(warZoneControl.zoneId)).prepare(),
      hotspots: d.select().from(warHotspots).where(eq(warHotspots.snapshotId, snapshotId)).orderBy(asc(warHotspots.id)).prepare(),
    };
  });
  const snapshot = await q.snapshot.get({ seasonId: season.id });
  if (!snapshot) return empty;
  const companies = await companyNames(db);
  const zoneNames = new Map((await q.zones.all()).map((row) => [row.id, row.name]));
  const scores = await q.scores.all({ snapshotId: snapshot.id });
  const zones = await q.control.all({ snapshotId: snapshot.id });
  const hotspots = await q.hotspots.all({ snapshotId: snapshot.id });
  const controlled = new Map<string, number>();
  for (const zone of zones) if (zone.controllerId) controlled.set(zone.controllerId, (controlled.get(zone.controllerId) ?? 0) + 1);
  const company = (id: string) => companies.get(id) ?? { name: id, color: '#808080' };
  const standings = scores
    .map((entry) => ({ id: entry.companyId, ...company(entry.companyId), score: entry.score, zonesControlled: controlled.get(entry.companyId) ?? 0 }))
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
export async function latestState(db: TDb, now: Date): Promise<TWarState> {
  return warMemo(db, 'latest', now, async () => {
    const season = await requireCurrentSeason(db, now);
    const state = await seasonState(db, season, now);
    if (state.capturedAt === null) throw new AppError('NOT_FOUND', `No war snapshot recorded yet for the current season ${season.id}`);
    return state;
  });
}

export async function stateOfSeason(db: TDb, ref: string | number, now: Date): Promise<TWarState> {
  return seasonState(db, await resolveSeason(db, ref), now);
}

export const ZSeasonSummary = ZSeasonOut.extend({
  snapshotCount: z.number().int(),
  firstSnapshotAt: z.string().nullable(),
  lastSnapshotAt: z.string().nullable(),
  current: z.boolean().meta({ description: 'The season /stateOfWar/latest and /history use by default' }),
});

export async function listSeasons(db: TDb, now: Date): Promise<{ items: z.infer<typeof ZSeasonSummary>[]; currentSeasonId: string | null }> {
  const rows = await listSeasonRows(db);
  const stats = await db
    .select({ seasonId: warSnapshots.seasonId, n: count(), first: min(warSnapshots.capturedAt), last: max(warSnapshots.capturedAt) })
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

/** Used by the CLI when a file mixes reference data and snapshots; snapshots come second so they can use the new zones. */
export async function importWarFile(db: TDb, data: unknown, now: Date): Promise<{ seasons: number; zones: number; companies: number; snapshots: number }> {
  const parsed = ZWarImportFile.safeParse(data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  const file = parsed.data;
  const hasReference = file.seasons.length + file.zones.length + file.companies.length > 0;
  const checked = ZWarReferenceInput.safeParse({ seasons: file.seasons, zones: file.zones, companies: file.companies });
  if (hasReference && !checked.success) throw invalidFile(issuesFromZod(checked.error));
  try {
    // One transaction: snapshots may use the zones and companies of the same file, and a bad
    // snapshot leaves the reference data unwritten too.
    return await transaction(db, async (tx) => {
      const reference = hasReference && checked.success ? await upsertWarReferenceIn(tx, checked.data) : { seasons: 0, zones: 0, companies: 0 };
      const snapshots = file.snapshots.length > 0 ? (await recordSnapshotsIn(tx, file.snapshots, now, (index) => `snapshots[${index}]`)).ids.length : 0;
      return { ...reference, snapshots };
    });
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}

