/**
 * Writing points inside a caller's transaction: the contract's embedded `points` of a collection
 * (create, and PUT replacing the set), the per-user limit, and each collection's `pointCount`.
 *
 * A contract point `uuid` is global now that points are a resource of their own:
 * - unknown: a new point with that uuid;
 * - a point of the caller's (in this collection, another of theirs, or an orphan): that point, moved
 *   into this collection at its place in the list and updated with the given fields (its address,
 *   own visibility and creation time stay);
 * - a point of another user's: **409**, naming `points[i].uuid`. Nothing of theirs is ever moved
 *   or overwritten; leave `uuid` out to create a new point with the same content.
 */
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollections, mapPoints } from '../../../db/schema';
import { AppError } from '../../errors';
import type { TPointRow } from './access';
import type { TMapPoint } from './point-schemas';
import { MAX_POINTS_PER_USER, type TPoint } from './schemas';

/** Rows per INSERT or IN list: far below SQLite's bound-variable limit on every build. */
export const CHUNK = 100;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** A stored point in the web client's `MapPoint` shape. */
export function toMapPoint(row: TPointRow): TMapPoint {
  return {
    id: row.id,
    uuid: row.id,
    userId: row.ownerId,
    collectionId: row.collectionId,
    title: row.title,
    description: row.description,
    latitude: row.latitude,
    longitude: row.longitude,
    address: row.address,
    tags: row.tags,
    public: row.isPublic ? 1 : 0,
    sharedUsers: [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function pointsOwnedBy(tx: TDb, ownerId: string): Promise<number> {
  return (await tx.select({ n: count() }).from(mapPoints).where(eq(mapPoints.ownerId, ownerId)).get())?.n ?? 0;
}

/** 409 when `ownerId` would own more than MAX_POINTS_PER_USER points after adding `adding`. */
export async function checkUserLimit(tx: TDb, ownerId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  const owned = await pointsOwnedBy(tx, ownerId);
  if (owned + adding > MAX_POINTS_PER_USER) {
    throw new AppError(
      'CONFLICT',
      `You may own at most ${MAX_POINTS_PER_USER} map points (you have ${owned}): delete some first`,
      {
        data: { limit: MAX_POINTS_PER_USER, owned },
      },
    );
  }
}

/** Sets each collection's pointCount from its rows, and its updatedAt to `now`. */
export async function recount(tx: TDb, collectionIds: Iterable<string>, now: Date): Promise<void> {
  for (const id of new Set(collectionIds)) {
    await tx
      .update(mapCollections)
      .set({
        pointCount: sql`(SELECT count(*) FROM ${mapPoints} WHERE ${mapPoints.collectionId} = ${id})`,
        updatedAt: now,
      })
      .where(eq(mapCollections.id, id));
  }
}

/**
 * Puts `points` into the collection in the given order (the uuid rule above). With `replace`, the
 * collection's other points are deleted first (the contract's PUT: points replace the whole set).
 * Runs inside the caller's transaction; sets the pointCount of every collection it touched.
 */
export async function placePoints(
  tx: TDb,
  {
    collectionId,
    ownerId,
    points,
    replace,
    now,
  }: { collectionId: string; ownerId: string; points: TPoint[]; replace: boolean; now: Date },
): Promise<void> {
  const existing = new Map<
    string,
    { ownerId: string; collectionId: string | null; address: string | null; isPublic: boolean; createdAt: Date }
  >();
  for (const ids of chunks(points.map((point) => point.uuid))) {
    const rows = await tx
      .select({
        id: mapPoints.id,
        ownerId: mapPoints.ownerId,
        collectionId: mapPoints.collectionId,
        address: mapPoints.address,
        isPublic: mapPoints.isPublic,
        createdAt: mapPoints.createdAt,
      })
      .from(mapPoints)
      .where(inArray(mapPoints.id, ids))
      .all();
    for (const row of rows) existing.set(row.id, row);
  }
  for (const [index, point] of points.entries()) {
    const found = existing.get(point.uuid);
    if (found && found.ownerId !== ownerId) {
      const path = `points[${index}].uuid`;
      throw new AppError('CONFLICT', `${path}: is another user's point: leave uuid out to create a new one`, {
        data: { field: path },
      });
    }
  }
  const touched = new Set<string>([collectionId]);
  for (const found of existing.values()) if (found.collectionId !== null) touched.add(found.collectionId);
  if (replace) await tx.delete(mapPoints).where(eq(mapPoints.collectionId, collectionId));
  for (const ids of chunks([...existing.keys()])) await tx.delete(mapPoints).where(inArray(mapPoints.id, ids));
  await checkUserLimit(tx, ownerId, points.length);
  for (const [chunkIndex, chunk] of chunks(points).entries()) {
    const rows = chunk.map((point, offset) => {
      const kept = existing.get(point.uuid);
      return {
        id: point.uuid,
        ownerId,
        collectionId,
        position: chunkIndex * CHUNK + offset,
        title: point.title,
        description: point.description,
        address: kept?.address ?? null,
        latitude: point.latitude,
        longitude: point.longitude,
        tags: point.tags,
        isPublic: kept?.isPublic ?? false,
        createdAt: kept?.createdAt ?? now,
        updatedAt: now,
      };
    });
    await tx.insert(mapPoints).values(rows);
  }
  await recount(tx, touched, now);
}
