/** Map collections: a user's own list, reads with the visibility rule, and the author's writes. */
import { randomUUID } from 'node:crypto';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollections, mapPoints, users } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
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

/** Rows per INSERT: far below SQLite's bound-variable limit on every build. */
const POINT_INSERT_CHUNK = 100;

const summaryColumns = {
  uuid: mapCollections.id,
  authorId: mapCollections.authorId,
  authorName: users.username,
  title: mapCollections.title,
  description: mapCollections.description,
  isPublic: mapCollections.isPublic,
  pointCount: mapCollections.pointCount,
  createdAt: mapCollections.createdAt,
  updatedAt: mapCollections.updatedAt,
};

interface TSummaryRow {
  uuid: string;
  authorId: string;
  /** null only if the author's row is gone (the foreign key makes that impossible in practice). */
  authorName: string | null;
  title: string;
  description: string | null;
  isPublic: boolean;
  pointCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The web client's `MapCollection` shape (docs/compatibility.md, "Map collections"). */
function toSummary(row: TSummaryRow): TCollectionSummary {
  return {
    id: row.uuid,
    uuid: row.uuid,
    userId: row.authorId,
    username: row.authorName ?? '',
    title: row.title,
    description: row.description,
    public: row.isPublic ? 1 : 0,
    // Sharing with named users is issue 19: nobody is shared with yet.
    sharedUsers: [],
    pointCount: row.pointCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Duplicate point uuids would make "replace the set" ambiguous; reject them before touching the store. */
function withPointIds(points: TPointInput[]): TPoint[] {
  if (points.length > MAX_POINTS_PER_COLLECTION) {
    throw new AppError('BAD_REQUEST', `Invalid input: points: at most ${MAX_POINTS_PER_COLLECTION} points per collection`, {
      issues: [{ path: 'points', message: `at most ${MAX_POINTS_PER_COLLECTION} points per collection` }],
    });
  }
  const seen = new Map<string, number>();
  return points.map((point, index) => {
    const uuid = point.uuid ?? randomUUID();
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

async function insertPoints(tx: TDb, collectionId: string, points: TPoint[]): Promise<void> {
  for (let start = 0; start < points.length; start += POINT_INSERT_CHUNK) {
    const rows = points.slice(start, start + POINT_INSERT_CHUNK).map((point, offset) => ({
      collectionId,
      id: point.uuid,
      position: start + offset,
      title: point.title,
      description: point.description,
      latitude: point.latitude,
      longitude: point.longitude,
      tags: point.tags,
    }));
    await tx.insert(mapPoints).values(rows);
  }
}

/** The user's collections, newest change first: one page of them (the web client reads the array itself). */
export async function listOwnCollections(
  deps: TDepsOf<'db'>,
  { userId, page, pageSize }: { userId: string; page: number; pageSize: number },
): Promise<TCollectionList> {
  const { db } = deps;
  const window = pageWindow(page, pageSize);
  const total = (await db.select({ n: count() }).from(mapCollections).where(eq(mapCollections.authorId, userId)).get())?.n ?? 0;
  const rows = await db
    .select(summaryColumns)
    .from(mapCollections)
    .leftJoin(users, eq(users.id, mapCollections.authorId))
    .where(eq(mapCollections.authorId, userId))
    .orderBy(desc(mapCollections.updatedAt), asc(mapCollections.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return { data: rows.map(toSummary), pagination: window.describe(total) };
}

async function findCollection(db: TDb, uuid: string): Promise<TSummaryRow | undefined> {
  return db.select(summaryColumns).from(mapCollections).leftJoin(users, eq(users.id, mapCollections.authorId)).where(eq(mapCollections.id, uuid)).get();
}

const NOT_FOUND = 'Map collection not found';

/** A non-public collection does not exist for anyone but its author. */
export async function getCollection(deps: TDepsOf<'db'>, { uuid, viewerId }: { uuid: string; viewerId: string | null }): Promise<TCollection> {
  const row = await findCollection(deps.db, uuid);
  if (!row || (!row.isPublic && row.authorId !== viewerId)) throw new AppError('NOT_FOUND', NOT_FOUND);
  return loadFull(deps.db, row);
}

async function loadFull(db: TDb, row: TSummaryRow): Promise<TCollection> {
  const points = await db
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
    .orderBy(asc(mapPoints.position))
    .all();
  return { ...toSummary(row), points };
}

/** A new collection of the author's, with its points in the order given (public unless isPublic is false). */
export async function createCollection(
  deps: TDepsOf<'db' | 'now'>,
  { authorId, collection: input }: { authorId: string; collection: TNewCollection },
): Promise<TCollection> {
  const now = deps.now();
  const { db } = deps;
  const points = withPointIds(input.points ?? []);
  const id = randomUUID();
  await transaction(db, async (tx) => {
    await tx.insert(mapCollections).values({
      id,
      authorId,
      title: input.title,
      description: input.description ?? null,
      isPublic: input.isPublic ?? true,
      pointCount: points.length,
      createdAt: now,
      updatedAt: now,
    });
    await insertPoints(tx, id, points);
  });
  return getCollection(deps, { uuid: id, viewerId: authorId });
}

/**
 * Only the author may change or delete a collection. Others get 404 for a non-public collection
 * (its existence stays hidden, as on reads) and 403 for a public one (they can see it, not change it).
 */
async function findOwned(db: TDb, uuid: string, userId: string, action: string): Promise<TSummaryRow> {
  const row = await findCollection(db, uuid);
  if (!row || (!row.isPublic && row.authorId !== userId)) throw new AppError('NOT_FOUND', NOT_FOUND);
  if (row.authorId !== userId) throw new AppError('FORBIDDEN', `Only the author may ${action} this collection`);
  return row;
}

/** The author's change of any of title, description, isPublic, points (points replace the whole set). */
export async function updateCollection(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId, patch }: { uuid: string; userId: string; patch: TCollectionPatch },
): Promise<TCollection> {
  const now = deps.now();
  const { db } = deps;
  await findOwned(db, uuid, userId, 'edit');
  const points = patch.points === undefined ? undefined : withPointIds(patch.points);
  await transaction(db, async (tx) => {
    await tx
      .update(mapCollections)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.isPublic !== undefined && { isPublic: patch.isPublic }),
        ...(points !== undefined && { pointCount: points.length }),
        updatedAt: now,
      })
      .where(eq(mapCollections.id, uuid));
    if (points !== undefined) {
      await tx.delete(mapPoints).where(eq(mapPoints.collectionId, uuid));
      await insertPoints(tx, uuid, points);
    }
  });
  return getCollection(deps, { uuid, viewerId: userId });
}

/** The author's collection deleted with its points. */
export async function deleteCollection(deps: TDepsOf<'db'>, { uuid, userId }: { uuid: string; userId: string }): Promise<void> {
  await findOwned(deps.db, uuid, userId, 'delete');
  // Points go with it through ON DELETE CASCADE.
  await deps.db.delete(mapCollections).where(eq(mapCollections.id, uuid));
}
