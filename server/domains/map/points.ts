/**
 * Map points as a resource of their own: create (into one of the caller's collections, or as an
 * orphan), read, change and delete one; the caller's points, their orphans, and a collection's
 * points, each one page. Visibility and ownership: access.ts.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, max, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapPoints } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
import { findPoint, ownedCollection, ownedPoint, pointColumns, POINT_NOT_FOUND, readableCollection } from './access';
import { checkUserLimit, recount, toMapPoint } from './point-store';
import type { TMapPoint, TNewPoint, TPointPage, TPointPatch } from './point-schemas';
import { MAX_POINTS_PER_COLLECTION } from './schemas';

/** A new point of the caller's; in `collectionUuid` (their own, appended at its end) or an orphan. */
export async function createPoint(
  deps: TDepsOf<'db' | 'now'>,
  { userId, point }: { userId: string; point: TNewPoint },
): Promise<TMapPoint> {
  const now = deps.now();
  const id = randomUUID();
  const collectionId = point.collectionUuid ?? null;
  await transaction(deps.db, async (tx) => {
    let position = 0;
    if (collectionId !== null) {
      const collection = await ownedCollection(tx, collectionId, userId, 'add points to');
      if (collection.pointCount >= MAX_POINTS_PER_COLLECTION) {
        throw new AppError('CONFLICT', `A collection holds at most ${MAX_POINTS_PER_COLLECTION} points`, {
          data: { limit: MAX_POINTS_PER_COLLECTION },
        });
      }
      const last = await tx
        .select({ position: max(mapPoints.position) })
        .from(mapPoints)
        .where(eq(mapPoints.collectionId, collectionId))
        .get();
      position = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
    }
    await checkUserLimit(tx, userId, 1);
    await tx.insert(mapPoints).values({
      id,
      ownerId: userId,
      collectionId,
      position,
      title: point.title,
      description: point.description ?? null,
      address: point.address ?? null,
      latitude: point.latitude,
      longitude: point.longitude,
      tags: point.tags ?? [],
      isPublic: point.isPublic ?? false,
      createdAt: now,
      updatedAt: now,
    });
    if (collectionId !== null) await recount(tx, [collectionId], now);
  });
  return getPoint(deps, { uuid: id, viewerId: userId });
}

/** One point for anyone who may read it; 404 otherwise. */
export async function getPoint(
  deps: TDepsOf<'db'>,
  { uuid, viewerId }: { uuid: string; viewerId: string | null },
): Promise<TMapPoint> {
  const row = await findPoint(deps.db, uuid.toLowerCase(), viewerId);
  if (!row?.readable) throw new AppError('NOT_FOUND', POINT_NOT_FOUND);
  return toMapPoint(row);
}

/** The owner's change of any of the point's fields. A point in a collection makes it a change of the collection too (its updatedAt). */
export async function updatePoint(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId, patch }: { uuid: string; userId: string; patch: TPointPatch },
): Promise<TMapPoint> {
  const now = deps.now();
  const id = uuid.toLowerCase();
  await transaction(deps.db, async (tx) => {
    const row = await ownedPoint(tx, id, userId, 'edit');
    await tx
      .update(mapPoints)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.latitude !== undefined && { latitude: patch.latitude }),
        ...(patch.longitude !== undefined && { longitude: patch.longitude }),
        ...(patch.address !== undefined && { address: patch.address }),
        ...(patch.tags !== undefined && { tags: patch.tags }),
        ...(patch.isPublic !== undefined && { isPublic: patch.isPublic }),
        updatedAt: now,
      })
      .where(eq(mapPoints.id, id));
    if (row.collectionId !== null) await recount(tx, [row.collectionId], now);
  });
  return getPoint(deps, { uuid: id, viewerId: userId });
}

/** The owner's point deleted (and taken out of its collection's count). */
export async function deletePoint(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId }: { uuid: string; userId: string },
): Promise<void> {
  const now = deps.now();
  const id = uuid.toLowerCase();
  await transaction(deps.db, async (tx) => {
    const row = await ownedPoint(tx, id, userId, 'delete');
    await tx.delete(mapPoints).where(eq(mapPoints.id, id));
    if (row.collectionId !== null) await recount(tx, [row.collectionId], now);
  });
}

async function pointPage(
  db: TDb,
  where: SQL | undefined,
  order: SQL[],
  page: number,
  pageSize: number,
): Promise<TPointPage> {
  const window = pageWindow(page, pageSize);
  const total = (await db.select({ n: count() }).from(mapPoints).where(where).get())?.n ?? 0;
  const rows = await db
    .select(pointColumns)
    .from(mapPoints)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return { data: rows.map(toMapPoint), pagination: window.describe(total) };
}

const NEWEST_CHANGE_FIRST = [desc(mapPoints.updatedAt), asc(mapPoints.id)];
const COLLECTION_ORDER = [asc(mapPoints.position), asc(mapPoints.id)];

/**
 * The caller's own points, newest change first; with `collectionUuid` (a collection they may read)
 * only those in it, in the collection's order.
 */
export async function listUserPoints(
  deps: TDepsOf<'db'>,
  {
    userId,
    collectionUuid,
    page,
    pageSize,
  }: { userId: string; collectionUuid?: string; page: number; pageSize: number },
): Promise<TPointPage> {
  if (collectionUuid === undefined)
    return pointPage(deps.db, eq(mapPoints.ownerId, userId), NEWEST_CHANGE_FIRST, page, pageSize);
  const collection = await readableCollection(deps.db, collectionUuid, userId);
  return pointPage(
    deps.db,
    and(eq(mapPoints.collectionId, collection.uuid), eq(mapPoints.ownerId, userId)),
    COLLECTION_ORDER,
    page,
    pageSize,
  );
}

/** The caller's orphan points (in no collection), newest change first. */
export async function listOrphanPoints(
  deps: TDepsOf<'db'>,
  { userId, page, pageSize }: { userId: string; page: number; pageSize: number },
): Promise<TPointPage> {
  return pointPage(
    deps.db,
    and(eq(mapPoints.ownerId, userId), isNull(mapPoints.collectionId)),
    NEWEST_CHANGE_FIRST,
    page,
    pageSize,
  );
}

/** A collection's points in its order, for anyone who may read the collection; 404 otherwise. */
export async function listCollectionPoints(
  deps: TDepsOf<'db'>,
  { uuid, viewerId, page, pageSize }: { uuid: string; viewerId: string | null; page: number; pageSize: number },
): Promise<TPointPage> {
  const collection = await readableCollection(deps.db, uuid, viewerId);
  return pointPage(deps.db, eq(mapPoints.collectionId, collection.uuid), COLLECTION_ORDER, page, pageSize);
}
