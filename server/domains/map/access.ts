/**
 * Who may read and who may change map collections and points: the rules stated once.
 *
 * - A collection is readable by anyone when public; otherwise by its author and the users it is
 *   shared with (`map_collection_shares`). Only its author changes it: the web client offers shared
 *   users no way to edit (its collection pickers list the caller's own collections only), so a share
 *   is read access and `can_edit` stays false.
 * - A point is readable by its owner, by anyone who can read its collection, and, while it is in no
 *   collection (an orphan), by anyone when its own `is_public` flag is set. Only its owner changes it.
 *   "Readable by anyone" is stored with the point (`readable_by_anyone`, kept by the triggers of
 *   migration 0018). The points of a collection are always its author's (every write path puts only
 *   the author's own points in it), so its author reads them as their owner.
 * - What cannot be read does not exist (404); what can be read but not changed is a 403.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollectionShares, mapCollections, mapPoints, users } from '../../../db/schema';
import { AppError } from '../../errors';

export const COLLECTION_NOT_FOUND = 'Map collection not found';
export const POINT_NOT_FOUND = 'Map point not found';

export const summaryColumns = {
  uuid: mapCollections.id,
  authorId: mapCollections.authorId,
  /** null only if the author's row is gone (the foreign key makes that impossible in practice). */
  authorName: users.username,
  title: mapCollections.title,
  description: mapCollections.description,
  isPublic: mapCollections.isPublic,
  pointCount: mapCollections.pointCount,
  createdAt: mapCollections.createdAt,
  updatedAt: mapCollections.updatedAt,
};

export async function findCollection(db: TDb, uuid: string) {
  return db
    .select(summaryColumns)
    .from(mapCollections)
    .leftJoin(users, eq(users.id, mapCollections.authorId))
    .where(eq(mapCollections.id, uuid))
    .get();
}

/** A collection's row as summaryColumns reads it. */
export type TSummaryRow = NonNullable<Awaited<ReturnType<typeof findCollection>>>;

async function isSharedWith(db: TDb, collectionId: string, userId: string): Promise<boolean> {
  const share = await db
    .select({ userId: mapCollectionShares.userId })
    .from(mapCollectionShares)
    .where(and(eq(mapCollectionShares.collectionId, collectionId), eq(mapCollectionShares.userId, userId)))
    .get();
  return share !== undefined;
}

/** Public, or the viewer is its author or shared with. */
export async function canReadCollection(db: TDb, row: TSummaryRow, viewerId: string | null): Promise<boolean> {
  if (row.isPublic || row.authorId === viewerId) return true;
  return viewerId !== null && isSharedWith(db, row.uuid, viewerId);
}

/** The collection if the viewer may read it; 404 otherwise (a hidden collection does not exist for them). */
export async function readableCollection(db: TDb, uuid: string, viewerId: string | null): Promise<TSummaryRow> {
  const row = await findCollection(db, uuid);
  if (!row || !(await canReadCollection(db, row, viewerId))) throw new AppError('NOT_FOUND', COLLECTION_NOT_FOUND);
  return row;
}

/**
 * The collection if `userId` is its author. Others: 404 when they cannot read it (its existence stays
 * hidden), 403 when they can (public, or shared with them: they see it, they do not change it).
 */
export async function ownedCollection(db: TDb, uuid: string, userId: string, action: string): Promise<TSummaryRow> {
  const row = await readableCollection(db, uuid, userId);
  if (row.authorId !== userId) throw new AppError('FORBIDDEN', `Only the author may ${action} this collection`);
  return row;
}

/** SQL true when the viewer may read the point row of `map_points`: anyone may, it is theirs, or its collection is shared with them. */
export function pointReadableSql(viewerId: string | null): SQL {
  const byAnyone = sql`${mapPoints.readableByAnyone} = 1`;
  if (viewerId === null) return byAnyone;
  return sql`(${byAnyone} OR ${mapPoints.ownerId} = ${viewerId} OR EXISTS (SELECT 1 FROM ${mapCollectionShares} WHERE ${mapCollectionShares.collectionId} = ${mapPoints.collectionId} AND ${mapCollectionShares.userId} = ${viewerId}))`;
}

export const pointColumns = {
  id: mapPoints.id,
  ownerId: mapPoints.ownerId,
  collectionId: mapPoints.collectionId,
  position: mapPoints.position,
  title: mapPoints.title,
  description: mapPoints.description,
  address: mapPoints.address,
  latitude: mapPoints.latitude,
  longitude: mapPoints.longitude,
  tags: mapPoints.tags,
  isPublic: mapPoints.isPublic,
  createdAt: mapPoints.createdAt,
  updatedAt: mapPoints.updatedAt,
};

/** The point with whether `viewerId` may read it; undefined when there is no such point. */
export async function findPoint(db: TDb, uuid: string, viewerId: string | null) {
  const row = await db
    .select({ ...pointColumns, readable: sql<number>`${pointReadableSql(viewerId)}` })
    .from(mapPoints)
    .where(eq(mapPoints.id, uuid))
    .get();
  return row && { ...row, readable: Boolean(row.readable) };
}

/** A point's row as pointColumns reads it. */
export type TPointRow = Omit<NonNullable<Awaited<ReturnType<typeof findPoint>>>, 'readable'>;

/** The point if `userId` owns it; 404 when they cannot read it, 403 when they can but do not own it. */
export async function ownedPoint(db: TDb, uuid: string, userId: string, action: string): Promise<TPointRow> {
  const row = await findPoint(db, uuid, userId);
  if (!row?.readable) throw new AppError('NOT_FOUND', POINT_NOT_FOUND);
  if (row.ownerId !== userId) throw new AppError('FORBIDDEN', `Only its owner may ${action} this point`);
  return row;
}
