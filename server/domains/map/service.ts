/**
 * Map collections: a user's own list, reads with the visibility rule (access.ts), the author's
 * writes with the contract's embedded `points` (point-store.ts) and the shares (shares.ts).
 */
import { randomUUID } from 'node:crypto';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollections, mapPoints, users } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
import { ownedCollection, readableCollection, summaryColumns, type TSummaryRow } from './access';
import { placePoints } from './point-store';
import { replaceShares, resolveSharedUsers, sharedUsernames } from './shares';
import {
  MAX_POINTS_PER_COLLECTION,
  type TCollection,
  type TCollectionList,
  type TCollectionPatch,
  type TCollectionSummary,
  type TNewCollection,
  type TPoint,
  type TPointInput,
} from './schemas';

/** The web client's `MapCollection` shape (docs/compatibility.md, "Map collections"); `sharedUsers` only for its author. */
export function toSummary(row: TSummaryRow, sharedUsers: string[] = []): TCollectionSummary {
  return {
    id: row.uuid,
    uuid: row.uuid,
    userId: row.authorId,
    username: row.authorName ?? '',
    title: row.title,
    description: row.description,
    public: row.isPublic ? 1 : 0,
    sharedUsers,
    pointCount: row.pointCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The summary as `viewerId` sees it: the share list is the author's to see. */
export async function summaryFor(db: TDb, row: TSummaryRow, viewerId: string | null): Promise<TCollectionSummary> {
  if (row.authorId !== viewerId) return toSummary(row);
  return toSummary(row, (await sharedUsernames(db, [row.uuid])).get(row.uuid));
}

/** Duplicate point uuids would make "replace the set" ambiguous; reject them before touching the store. */
function withPointIds(points: TPointInput[]): TPoint[] {
  if (points.length > MAX_POINTS_PER_COLLECTION) {
    throw new AppError(
      'BAD_REQUEST',
      `Invalid input: points: at most ${MAX_POINTS_PER_COLLECTION} points per collection`,
      {
        issues: [{ path: 'points', message: `at most ${MAX_POINTS_PER_COLLECTION} points per collection` }],
      },
    );
  }
  const seen = new Map<string, number>();
  return points.map((point, index) => {
    const uuid = (point.uuid ?? randomUUID()).toLowerCase();
    const earlier = seen.get(uuid);
    if (earlier !== undefined) {
      const path = `points[${index}].uuid`;
      throw new AppError('BAD_REQUEST', `Invalid input: ${path}: duplicates points[${earlier}].uuid`, {
        issues: [{ path, message: `duplicates points[${earlier}].uuid` }],
      });
    }
    seen.set(uuid, index);
    return {
      uuid,
      title: point.title,
      description: point.description ?? null,
      latitude: point.latitude,
      longitude: point.longitude,
      tags: point.tags ?? [],
    };
  });
}

/** The user's collections, newest change first: one page of them (the web client reads the array itself). */
export async function listOwnCollections(
  deps: TDepsOf<'db'>,
  { userId, page, pageSize }: { userId: string; page: number; pageSize: number },
): Promise<TCollectionList> {
  const { db } = deps;
  const window = pageWindow(page, pageSize);
  const total =
    (await db.select({ n: count() }).from(mapCollections).where(eq(mapCollections.authorId, userId)).get())?.n ?? 0;
  const rows = await db
    .select(summaryColumns)
    .from(mapCollections)
    .leftJoin(users, eq(users.id, mapCollections.authorId))
    .where(eq(mapCollections.authorId, userId))
    .orderBy(desc(mapCollections.updatedAt), asc(mapCollections.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  const shares = await sharedUsernames(
    db,
    rows.map((row) => row.uuid),
  );
  return { data: rows.map((row) => toSummary(row, shares.get(row.uuid))), pagination: window.describe(total) };
}

/** A collection for anyone who may read it (public, its author, a user it is shared with); 404 otherwise. */
export async function getCollection(
  deps: TDepsOf<'db'>,
  { uuid, viewerId }: { uuid: string; viewerId: string | null },
): Promise<TCollection> {
  const row = await readableCollection(deps.db, uuid, viewerId);
  const points = await deps.db
    .select({
      uuid: mapPoints.id,
      title: mapPoints.title,
      description: mapPoints.description,
      latitude: mapPoints.latitude,
      longitude: mapPoints.longitude,
      tags: mapPoints.tags,
    })
    .from(mapPoints)
    .where(eq(mapPoints.collectionId, row.uuid))
    .orderBy(asc(mapPoints.position), asc(mapPoints.id))
    .all();
  return { ...(await summaryFor(deps.db, row, viewerId)), points };
}

/** A new collection of the author's, with its points in the order given (public unless isPublic is false) and its shares. */
export async function createCollection(
  deps: TDepsOf<'db' | 'now'>,
  { authorId, collection: input }: { authorId: string; collection: TNewCollection },
): Promise<TCollection> {
  const now = deps.now();
  const { db } = deps;
  const points = withPointIds(input.points ?? []);
  const id = randomUUID();
  await transaction(db, async (tx) => {
    const shares = await resolveSharedUsers(tx, input.sharedUsers ?? [], authorId);
    await tx.insert(mapCollections).values({
      id,
      authorId,
      title: input.title,
      description: input.description ?? null,
      isPublic: input.isPublic ?? true,
      pointCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    await placePoints(tx, { collectionId: id, ownerId: authorId, points, replace: false, now });
    await replaceShares(tx, id, shares, now);
  });
  return getCollection(deps, { uuid: id, viewerId: authorId });
}

/** The author's change of any of COLLECTION_UPDATABLE_FIELDS (schemas.ts; points and shares replace the whole set). */
export async function updateCollection(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId, patch }: { uuid: string; userId: string; patch: TCollectionPatch },
): Promise<TCollection> {
  const now = deps.now();
  const { db } = deps;
  const points = patch.points === undefined ? undefined : withPointIds(patch.points);
  await transaction(db, async (tx) => {
    await ownedCollection(tx, uuid, userId, 'edit');
    const shares =
      patch.sharedUsers === undefined ? undefined : await resolveSharedUsers(tx, patch.sharedUsers, userId);
    await tx
      .update(mapCollections)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.isPublic !== undefined && { isPublic: patch.isPublic }),
        updatedAt: now,
      })
      .where(eq(mapCollections.id, uuid));
    if (points !== undefined)
      await placePoints(tx, { collectionId: uuid, ownerId: userId, points, replace: true, now });
    if (shares !== undefined) await replaceShares(tx, uuid, shares, now);
  });
  return getCollection(deps, { uuid, viewerId: userId });
}

/** The author's collection deleted with its points and shares. */
export async function deleteCollection(
  deps: TDepsOf<'db'>,
  { uuid, userId }: { uuid: string; userId: string },
): Promise<void> {
  await transaction(deps.db, async (tx) => {
    await ownedCollection(tx, uuid, userId, 'delete');
    // Points and shares go with it through ON DELETE CASCADE.
    await tx.delete(mapCollections).where(eq(mapCollections.id, uuid));
  });
}
