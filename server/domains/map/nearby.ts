/**
 * Points near a place (the web client's "Nearby" list of a selected marker, View.vue). Bounded:
 * `radius` at most MAX_NEARBY_RADIUS_KM, `limit` at most MAX_NEARBY_LIMIT. The `map_points_place`
 * index (latitude, longitude) finds the candidates in the bounding box of the circle; the exact
 * great-circle distance (haversine, Earth radius 6,371 km) then keeps those within `radius`, nearest
 * first. Only points the caller may read are considered (access.ts).
 */
import { and, asc, between, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollections, mapPoints } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pointColumns, pointReadableSql } from './access';
import { toMapPoint } from './point-store';
import type { TNearby, TNearbyInput } from './point-schemas';

const EARTH_RADIUS_KM = 6371;
const DEGREES = Math.PI / 180;

/** Latitude and longitude ranges (degrees) holding every place within `radiusKm` of the centre. */
export function boundingBox(latitude: number, longitude: number, radiusKm: number): { latitude: [number, number]; longitude: [number, number][] } {
  const angular = radiusKm / EARTH_RADIUS_KM;
  const minLat = latitude - angular / DEGREES;
  const maxLat = latitude + angular / DEGREES;
  if (minLat <= -90 || maxLat >= 90) return { latitude: [Math.max(minLat, -90), Math.min(maxLat, 90)], longitude: [[-180, 180]] };
  // The widest longitude offset of the circle (Matuschek, "Finding points within a distance").
  const offset = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(latitude * DEGREES))) / DEGREES;
  const west = longitude - offset;
  const east = longitude + offset;
  const ranges: [number, number][] =
    west < -180 ? [[west + 360, 180], [-180, east]] : east > 180 ? [[west, 180], [-180, east - 360]] : [[west, east]];
  return { latitude: [minLat, maxLat], longitude: ranges };
}

/** SQL: the haversine distance in km from the centre to the point row. */
function distanceSql(latitude: number, longitude: number): SQL<number> {
  const lat = sql`radians(${mapPoints.latitude})`;
  const dLat = sql`(radians(${mapPoints.latitude}) - ${latitude * DEGREES})`;
  const dLon = sql`(radians(${mapPoints.longitude}) - ${longitude * DEGREES})`;
  return sql<number>`(${2 * EARTH_RADIUS_KM} * asin(min(1, sqrt(sin(${dLat} / 2) * sin(${dLat} / 2) + ${Math.cos(latitude * DEGREES)} * cos(${lat}) * sin(${dLon} / 2) * sin(${dLon} / 2)))))`;
}

/** The statement: candidates of the bounding box (map_points_place), readable ones within `radius`, nearest first. */
export function nearbyQuery(db: TDb, viewerId: string | null, { latitude, longitude, radius, limit }: TNearbyInput) {
  const box = boundingBox(latitude, longitude, radius);
  const distance = distanceSql(latitude, longitude);
  const inLongitude = or(...box.longitude.map(([west, east]) => and(gte(mapPoints.longitude, west), lte(mapPoints.longitude, east))));
  return db
    .select({ ...pointColumns, distance })
    .from(mapPoints)
    .leftJoin(mapCollections, eq(mapCollections.id, mapPoints.collectionId))
    .where(and(between(mapPoints.latitude, box.latitude[0], box.latitude[1]), inLongitude, pointReadableSql(viewerId), sql`${distance} <= ${radius}`))
    .orderBy(asc(distance), asc(mapPoints.id))
    .limit(limit);
}

export async function nearbyPoints(deps: TDepsOf<'db'>, { viewerId, query }: { viewerId: string | null; query: TNearbyInput }): Promise<TNearby> {
  const rows = await nearbyQuery(deps.db, viewerId, query).all();
  return { points: rows.map((row) => ({ ...toMapPoint(row), distance: row.distance })), radius: query.radius, limit: query.limit };
}
