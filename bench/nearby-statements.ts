/** bench/nearby.ts's requests (the cases) and the timing of their statements in process: the previous release's against the current one. */
import Database from 'better-sqlite3';
import { and, asc, between, eq, gte, lte, or, sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { mapCollectionShares, mapCollections, mapPoints } from '../db/schema';
import { pointColumns } from '../server/domains/map/access';
import { boundingBox, distanceSql, nearbyQuery } from '../server/domains/map/nearby';
import type { TNearbyInput } from '../server/domains/map/point-schemas';
import { DENSE, SPOT } from './nearby-layout';
import { formatMs, quantile } from './timing-report';

const ISSUE: TNearbyInput = { ...SPOT, radius: 500, limit: 100 };
/** The requests timed, the i-th of each a little apart from the others. */
export const CASES: { name: string; query: (i: number) => TNearbyInput; signedIn: boolean }[] = [
  {
    name: "the issue's request (radius 500, limit 100), anonymous",
    query: (i) => ({ ...ISSUE, latitude: SPOT.latitude + (i % 10) * 0.001 }),
    signedIn: false,
  },
  {
    name: "the issue's request, signed in (500 own, 1,000 shared)",
    query: (i) => ({ ...ISSUE, latitude: SPOT.latitude + (i % 10) * 0.001 }),
    signedIn: true,
  },
  {
    name: 'radius 10, limit 10 at places of the private band, anonymous',
    query: (i) => ({
      latitude: (50 + ((i * 7) % 110)) / 10,
      longitude: (((i * 37) % 3600) - 1800) / 10,
      radius: 10,
      limit: 10,
    }),
    signedIn: false,
  },
  {
    name: 'radius 50 in 5,000 public points (cut at the cap), anonymous',
    query: (i) => ({ ...DENSE, latitude: DENSE.latitude + (i % 10) * 0.001, radius: 50, limit: 100 }),
    signedIn: false,
  },
];

/** The p50 and p99 of `ms`, as two cells of a table. */
export const summary = (ms: number[]) => `${formatMs(quantile(ms, 0.5))} | ${formatMs(quantile(ms, 0.99))}`;

/** The access rule of the previous release, tested on each row through its collection and its shares. */
function previousReadableSql(viewerId: string | null) {
  const orphanPublic = sql`(${mapPoints.collectionId} IS NULL AND ${mapPoints.isPublic} = 1)`;
  if (viewerId === null) return sql`(${orphanPublic} OR ${mapCollections.isPublic} = 1)`;
  return sql`(${mapPoints.ownerId} = ${viewerId} OR ${orphanPublic} OR ${mapCollections.isPublic} = 1 OR ${mapCollections.authorId} = ${viewerId} OR EXISTS (SELECT 1 FROM ${mapCollectionShares} WHERE ${mapCollectionShares.collectionId} = ${mapPoints.collectionId} AND ${mapCollectionShares.userId} = ${viewerId}))`;
}

/** The statement of the previous release (before issue 31): the band of map_points_place, each row's access tested. */
function previousQuery(db: TDb, viewerId: string | null, { latitude, longitude, radius, limit }: TNearbyInput) {
  const box = boundingBox(latitude, longitude, radius);
  const distance = distanceSql(latitude, longitude, mapPoints.latitude, mapPoints.longitude);
  const inLongitude = or(
    ...box.longitude.map(([west, east]) => and(gte(mapPoints.longitude, west), lte(mapPoints.longitude, east))),
  );
  return db
    .select({ ...pointColumns, distance: distance.as('distance') })
    .from(mapPoints)
    .leftJoin(mapCollections, eq(mapCollections.id, mapPoints.collectionId))
    .where(
      and(
        between(mapPoints.latitude, box.latitude[0], box.latitude[1]),
        inLongitude,
        previousReadableSql(viewerId),
        sql`${distance} <= ${radius}`,
      ),
    )
    .orderBy(asc(distance), asc(mapPoints.id))
    .limit(limit);
}

/** Each case's statement on `file` in this process through better-sqlite3, previous (`beforeRequests` times) and current (`requests` times). */
export async function statementTimes(
  file: string,
  db: TDb,
  callerId: string,
  requests: number,
  beforeRequests: number,
): Promise<void> {
  const client = new Database(file);
  client.pragma('cache_size = -262144');
  const time = (
    build: (viewer: string | null, query: TNearbyInput) => { sql: string; params: unknown[] },
    signedIn: boolean,
    query: (i: number) => TNearbyInput,
    times: number,
  ) => {
    const ms: number[] = [];
    let rows = 0;
    for (let i = -2; i < times; i++) {
      const asked = query(i + 2);
      const { sql: text, params } = build(signedIn ? callerId : null, asked);
      const started = performance.now();
      const answered = client.prepare(text).all(...params) as { distance: number }[];
      if (i >= 0) ms.push(performance.now() - started);
      // The current statement may end with rows beyond the radius, which the service drops.
      rows = answered.filter((row) => row.distance <= asked.radius).length;
    }
    return { ms, rows };
  };
  console.log(
    `\nThe statement alone (better-sqlite3 in this process, ms; ${beforeRequests} requests before, ${requests} now):\n\n| case | before p50 | before p99 | now p50 | now p99 | points before / now |\n|---|---:|---:|---:|---:|---|`,
  );
  client.exec('CREATE INDEX IF NOT EXISTS map_points_place ON map_points (latitude, longitude)');
  let before: ReturnType<typeof time>[];
  try {
    before = CASES.map((c) =>
      time((viewer, query) => previousQuery(db, viewer, query).toSQL(), c.signedIn, c.query, beforeRequests),
    );
  } finally {
    client.exec('DROP INDEX map_points_place');
  }
  for (const [n, c] of CASES.entries()) {
    const now = time((viewer, query) => nearbyQuery(db, viewer, query).toSQL(), c.signedIn, c.query, requests);
    console.log(`| ${c.name} | ${summary(before[n]!.ms)} | ${summary(now.ms)} | ${before[n]!.rows} / ${now.rows} |`);
  }
  client.close();
}
