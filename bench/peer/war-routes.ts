/**
 * The peer's state-of-war routes (bench/peer/server.ts): the latest snapshot of the current season and
 * its history in buckets (1h, 1d, 7d), the same SQL as our service and the same answers.
 */
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { fail, iso, ok, round2, seasonOut } from './answers';
import type { TPeerStatements } from './statements';

const HISTORY_RANGES = { '1h': [60_000, 60], '1d': [900_000, 96], '7d': [3_600_000, 168] } as const;

/** The war's companies by id: name and colour. */
function companyMap(statements: TPeerStatements) {
  return new Map(
    (statements.companies.all() as Record<string, any>[]).map((row) => [row.id, { name: row.name, color: row.color }]),
  );
}

/** GET /api/stateOfWar/latest and GET /api/stateOfWar/history. */
export function registerWarRoutes(app: FastifyInstance, db: Database.Database, statements: TPeerStatements): void {
  app.get('/api/stateOfWar/latest', async (_request, reply) => {
    const nowMs = Date.now();
    const season = statements.currentSeason.get(nowMs, nowMs) as Record<string, any> | undefined;
    if (!season) return fail(reply, 404, 'No season has started yet');
    const snapshot = statements.latestSnapshot.get(season.id) as Record<string, any> | undefined;
    if (!snapshot) return fail(reply, 404, 'No war snapshot recorded yet');
    const companies = companyMap(statements);
    const zoneNames = new Map((statements.zones.all() as Record<string, any>[]).map((row) => [row.id, row.name]));
    const scores = statements.snapshotScores.all(snapshot.id) as Record<string, any>[];
    const zones = statements.snapshotZones.all(snapshot.id) as Record<string, any>[];
    const hotspots = statements.snapshotHotspots.all(snapshot.id) as Record<string, any>[];
    const held = new Map<string, number>();
    for (const zone of zones)
      if (zone.controller_id) held.set(zone.controller_id, (held.get(zone.controller_id) ?? 0) + 1);
    const company = (id: string) => companies.get(id) ?? { name: id, color: '#808080' };
    return ok({
      season: seasonOut(season, nowMs),
      capturedAt: iso(snapshot.captured_at),
      companies: scores
        .map((s) => ({
          id: s.company_id,
          ...company(s.company_id),
          score: s.score,
          zonesControlled: held.get(s.company_id) ?? 0,
        }))
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
        .map((entry, index) => ({ ...entry, rank: index + 1 })),
      zones: zones.map((zone) => ({
        id: zone.zone_id,
        name: zoneNames.get(zone.zone_id) ?? zone.zone_id,
        controller: zone.controller_id ? { id: zone.controller_id, ...company(zone.controller_id) } : null,
        scores: Object.entries(JSON.parse(zone.scores) as Record<string, number>)
          .map(([companyId, score]) => ({ companyId, name: company(companyId).name, score }))
          .sort((a, b) => b.score - a.score || a.companyId.localeCompare(b.companyId)),
      })),
      hotspots: hotspots.map((h) => ({
        zoneId: h.zone_id,
        zoneName: zoneNames.get(h.zone_id) ?? h.zone_id,
        name: h.name,
        kind: h.kind,
        endsAt: iso(h.ends_at),
      })),
    });
  });

  app.get('/api/stateOfWar/history', async (request, reply) => {
    const range = ((request.query as Record<string, string | undefined>).range ?? '1d') as keyof typeof HISTORY_RANGES;
    if (!(range in HISTORY_RANGES)) return fail(reply, 400, 'Invalid input: range: must be one of 1h, 1d, 7d');
    const [bucketMs, bucketCount] = HISTORY_RANGES[range];
    const nowMs = Date.now();
    const season = statements.currentSeason.get(nowMs, nowMs) as Record<string, any> | undefined;
    if (!season) return fail(reply, 404, 'No season has started yet');
    const base = { season: seasonOut(season, nowMs), range, bucketSeconds: bucketMs / 1000 };
    const last = (statements.lastCapture.get(season.id) as { at: number | null }).at;
    if (last === null) return ok({ ...base, from: null, to: null, lastSnapshotAt: null, buckets: [] });
    const lastBucketStart = Math.floor(last / bucketMs) * bucketMs;
    const fromMs = lastBucketStart - (bucketCount - 1) * bucketMs;
    const toMs = lastBucketStart + bucketMs;
    const perBucket = statements.historyBuckets.all(fromMs, bucketMs, season.id, fromMs, toMs) as Record<string, any>[];
    const perCompany = statements.historyCompanies.all(fromMs, bucketMs, season.id, fromMs, toMs) as Record<
      string,
      any
    >[];
    const lastIds = perBucket.map((row) => row.last_id as number);
    const marks = lastIds.map(() => '?').join(',') || 'null';
    const closing = db
      .prepare(`select * from war_company_scores where snapshot_id in (${marks})`)
      .all(...lastIds) as Record<string, any>[];
    const heldRows = db
      .prepare(
        `select snapshot_id, controller_id, count(*) as n from war_zone_control where snapshot_id in (${marks}) and controller_id is not null group by snapshot_id, controller_id`,
      )
      .all(...lastIds) as Record<string, any>[];
    const names = companyMap(statements);
    const closingScore = new Map(closing.map((row) => [`${row.snapshot_id}/${row.company_id}`, row.score]));
    const heldCount = new Map(heldRows.map((row) => [`${row.snapshot_id}/${row.controller_id}`, row.n]));
    const stats = new Map(perBucket.map((row) => [row.bucket, row]));
    const byBucket = new Map<number, Record<string, any>[]>();
    for (const row of perCompany) {
      const list = byBucket.get(row.bucket) ?? [];
      list.push(row);
      byBucket.set(row.bucket, list);
    }
    const buckets = Array.from({ length: bucketCount }, (_, index) => {
      const start = fromMs + index * bucketMs;
      const stat = stats.get(index);
      return {
        start: iso(start),
        end: iso(start + bucketMs),
        snapshotCount: stat?.n ?? 0,
        lastSnapshotAt: stat ? iso(stat.last_at) : null,
        companies: (byBucket.get(index) ?? [])
          .map((row) => {
            const company = names.get(row.company_id) ?? { name: row.company_id, color: '#808080' };
            const key = `${stat!.last_id}/${row.company_id}`;
            return {
              id: row.company_id,
              name: company.name,
              color: company.color,
              score: closingScore.get(key) ?? 0,
              average: round2(row.average),
              min: row.min,
              max: row.max,
              zonesControlled: heldCount.get(key) ?? 0,
            };
          })
          .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)),
      };
    });
    return ok({ ...base, from: iso(fromMs), to: iso(toMs), lastSnapshotAt: iso(last), buckets });
  });
}
