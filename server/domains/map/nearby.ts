/**
 * Points near a place (the web client's "Nearby" list of a selected marker, View.vue). Bounded:
 * `radius` at most MAX_NEARBY_RADIUS_KM, `limit` at most MAX_NEARBY_LIMIT, and at most
 * MAX_NEARBY_CANDIDATES candidates examined (issue 31): a request costs what its caller may read
 * near the place, never what others keep private there.
 *
 * The candidates are the points of the bounding box of the circle that the caller may read (the
 * rule of access.ts), taken from three disjoint sets, each through a partial index holding nothing
 * else (db/schema/map.ts):
 * - the caller's own points that not everyone may read (at most MAX_POINTS_PER_USER of them);
 * - the points of the private collections shared with the caller (at most 1,000 per collection);
 * - the points anyone may read (`readable_by_anyone`, kept by triggers), sought by latitude cell in
 *   the box's longitude range, so a search does not walk a band of latitude round the globe.
 * The points of a collection are its author's (every write path puts only the author's own points
 * in it), so "the caller's own" covers "of the caller's collections". The exact great-circle
 * distance (haversine, Earth radius 6,371 km) then ranks the candidates, nearest first, ties by
 * uuid; those within `radius` are the answer.
 */
import { and, asc, between, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { LATITUDE_CELLS_PER_DEGREE, mapCollectionShares, mapPoints } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pointColumns } from './access';
import { toMapPoint } from './point-store';
import { MAX_NEARBY_CANDIDATES, type TNearby, type TNearbyInput } from './point-schemas';

const EARTH_RADIUS_KM = 6371;
const DEGREES = Math.PI / 180;

type TBox = { latitude: [number, number]; longitude: [number, number][] };

/** Latitude and longitude ranges (degrees) holding every place within `radiusKm` of the centre. */
export function boundingBox(latitude: number, longitude: number, radiusKm: number): TBox {
  const angular = radiusKm / EARTH_RADIUS_KM;
  const minLat = latitude - angular / DEGREES;
  const maxLat = latitude + angular / DEGREES;
  if (minLat <= -90 || maxLat >= 90)
    return { latitude: [Math.max(minLat, -90), Math.min(maxLat, 90)], longitude: [[-180, 180]] };
  // The widest longitude offset of the circle (Matuschek, "Finding points within a distance").
  const offset = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(latitude * DEGREES))) / DEGREES;
  const west = longitude - offset;
  const east = longitude + offset;
  const ranges: [number, number][] =
    west < -180
      ? [
          [west + 360, 180],
          [-180, east],
        ]
      : east > 180
        ? [
            [west, 180],
            [-180, east - 360],
          ]
        : [[west, east]];
  return { latitude: [minLat, maxLat], longitude: ranges };
}

/** The `latitude_cell` values of the latitude range: SQLite computes a point's cell with the same floating-point steps, so none is missed. */
export function latitudeCells([south, north]: [number, number]): number[] {
  const cell = (latitude: number) => Math.trunc((latitude + 90) * LATITUDE_CELLS_PER_DEGREE);
  const cells: number[] = [];
  for (let at = cell(south); at <= cell(north); at++) cells.push(at);
  return cells;
}

/** SQL: the haversine distance in km from the centre to the place in the two columns. */
export function distanceSql(
  latitude: number,
  longitude: number,
  pointLatitude: SQLiteColumn | SQL,
  pointLongitude: SQLiteColumn | SQL,
): SQL<number> {
  const lat = sql`radians(${pointLatitude})`;
  const dLat = sql`(radians(${pointLatitude}) - ${latitude * DEGREES})`;
  const dLon = sql`(radians(${pointLongitude}) - ${longitude * DEGREES})`;
  return sql<number>`(${2 * EARTH_RADIUS_KM} * asin(min(1, sqrt(sin(${dLat} / 2) * sin(${dLat} / 2) + ${Math.cos(latitude * DEGREES)} * cos(${lat}) * sin(${dLon} / 2) * sin(${dLon} / 2)))))`;
}

const place = { id: mapPoints.id, latitude: mapPoints.latitude, longitude: mapPoints.longitude };
// Constants in the text, not bound values: they select the partial indexes when the statement is prepared.
const readableByAnyone = sql`${mapPoints.readableByAnyone} = 1`;
const notReadableByAnyone = sql`${mapPoints.readableByAnyone} = 0`;

/** Within the box, on the latitude-led indexes (one owner's or one collection's points). */
function inBox(box: TBox): SQL | undefined {
  const inLongitude = or(
    ...box.longitude.map(([west, east]) => and(gte(mapPoints.longitude, west), lte(mapPoints.longitude, east))),
  );
  return and(between(mapPoints.latitude, box.latitude[0], box.latitude[1]), inLongitude);
}

/** The candidate sets of the caller, disjoint; the caller's own first, so that the cap cuts the public ones first. */
function candidateSets(db: TDb, viewerId: string | null, box: TBox) {
  const ownPrivate = (viewer: string) =>
    db
      .select(place)
      .from(mapPoints)
      .where(and(eq(mapPoints.ownerId, viewer), notReadableByAnyone, inBox(box)));
  const sharedPrivate = (viewer: string) =>
    db
      .select(place)
      .from(mapCollectionShares)
      .innerJoin(mapPoints, eq(mapPoints.collectionId, mapCollectionShares.collectionId))
      .where(and(eq(mapCollectionShares.userId, viewer), notReadableByAnyone, inBox(box)));
  // One set per longitude range (two across the antimeridian): each cell of the box is one seek.
  const cells = latitudeCells(box.latitude);
  const publicPoints = box.longitude.map(([west, east]) =>
    db
      .select(place)
      .from(mapPoints)
      .where(
        and(
          readableByAnyone,
          inArray(mapPoints.latitudeCell, cells),
          between(mapPoints.longitude, west, east),
          between(mapPoints.latitude, box.latitude[0], box.latitude[1]),
        ),
      ),
  );
  return viewerId === null ? publicPoints : [ownPrivate(viewerId), sharedPrivate(viewerId), ...publicPoints];
}

/**
 * The statement: the candidates (at most MAX_NEARBY_CANDIDATES + 1, so that a cut is seen), ranked
 * by distance; the nearest `limit` with their rows, and `examined`, how many candidates there were.
 * Rows beyond `radius` may come last: nearbyPoints drops them (the one left when none is within
 * `radius` still carries `examined`).
 */
export function nearbyQuery(db: TDb, viewerId: string | null, { latitude, longitude, radius, limit }: TNearbyInput) {
  const [first, ...rest] = candidateSets(db, viewerId, boundingBox(latitude, longitude, radius));
  const union = rest.reduce((query, set) => query.unionAll(set), first!.$dynamic());
  const candidates = db.$with('candidates').as(union.limit(MAX_NEARBY_CANDIDATES + 1));
  const distance = distanceSql(latitude, longitude, candidates.latitude, candidates.longitude);
  const nearest = db.$with('nearest').as(
    db
      .select({
        id: candidates.id,
        distance: distance.as('distance'),
        examined: sql<number>`count(*) OVER ()`.as('examined'),
      })
      .from(candidates)
      .orderBy(sql`distance`, candidates.id)
      .limit(limit),
  );
  return db
    .with(candidates, nearest)
    .select({ ...pointColumns, distance: nearest.distance, examined: nearest.examined })
    .from(nearest)
    .innerJoin(mapPoints, eq(mapPoints.id, nearest.id))
    .orderBy(asc(nearest.distance), asc(nearest.id));
}

export async function nearbyPoints(
  deps: TDepsOf<'db'>,
  { viewerId, query }: { viewerId: string | null; query: TNearbyInput },
): Promise<TNearby> {
  const rows = await nearbyQuery(deps.db, viewerId, query).all();
  return {
    points: rows
      .filter((row) => row.distance <= query.radius)
      .map((row) => ({ ...toMapPoint(row), distance: row.distance })),
    radius: query.radius,
    limit: query.limit,
    truncated: (rows[0]?.examined ?? 0) > MAX_NEARBY_CANDIDATES,
  };
}
