/**
 * Moving the caller's points into one of their collections and out of it (the web client's point
 * manager, maps.vue). A point sits in at most one collection: moving it in takes it out of the one
 * it was in; taking it out makes it an orphan. Each call is one transaction, so concurrent moves of
 * the same points leave each of them in exactly one place, with every pointCount exact.
 */
import { and, eq, inArray, max, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapPoints } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { findCollection, ownedCollection, pointReadableSql, POINT_NOT_FOUND } from './access';
import { chunks, recount } from './point-store';
import type { TMembershipChange } from './point-schemas';
import { MAX_POINTS_PER_COLLECTION } from './schemas';
import { summaryFor } from './service';

interface TMoveInput {
  uuid: string;
  userId: string;
  pointUuids: string[];
}

/** The given points, each once, all the caller's: 404 naming one they cannot read, 403 one they can but do not own. */
async function ownPoints(
  tx: TDb,
  userId: string,
  pointUuids: string[],
): Promise<{ id: string; collectionId: string | null }[]> {
  const ids = [...new Set(pointUuids.map((uuid) => uuid.toLowerCase()))];
  const found = new Map<string, { id: string; ownerId: string; collectionId: string | null; readable: number }>();
  for (const part of chunks(ids)) {
    const rows = await tx
      .select({
        id: mapPoints.id,
        ownerId: mapPoints.ownerId,
        collectionId: mapPoints.collectionId,
        readable: sql<number>`${pointReadableSql(userId)}`,
      })
      .from(mapPoints)
      .where(inArray(mapPoints.id, part))
      .all();
    for (const row of rows) found.set(row.id, row);
  }
  return ids.map((id) => {
    const row = found.get(id);
    const path = `pointUuids[${pointUuids.findIndex((uuid) => uuid.toLowerCase() === id)}]`;
    if (!row?.readable) throw new AppError('NOT_FOUND', `${path}: ${POINT_NOT_FOUND}`, { data: { field: path } });
    if (row.ownerId !== userId)
      throw new AppError('FORBIDDEN', `${path}: only its owner may move this point`, { data: { field: path } });
    return row;
  });
}

async function answer(tx: TDb, uuid: string, userId: string, moved: string[]): Promise<TMembershipChange> {
  const row = await findCollection(tx, uuid);
  if (!row) throw new AppError('NOT_FOUND', 'Map collection not found');
  return { collection: await summaryFor(tx, row, userId), pointUuids: moved };
}

/** Moves the caller's points into their collection, appended in the given order; points already in it stay where they are. */
export async function addPointsToCollection(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId, pointUuids }: TMoveInput,
): Promise<TMembershipChange> {
  const now = deps.now();
  return transaction(deps.db, async (tx) => {
    const collection = await ownedCollection(tx, uuid, userId, 'add points to');
    const moving = (await ownPoints(tx, userId, pointUuids)).filter((point) => point.collectionId !== collection.uuid);
    if (collection.pointCount + moving.length > MAX_POINTS_PER_COLLECTION) {
      throw new AppError(
        'CONFLICT',
        `A collection holds at most ${MAX_POINTS_PER_COLLECTION} points (this one has ${collection.pointCount})`,
        {
          data: { limit: MAX_POINTS_PER_COLLECTION, pointCount: collection.pointCount },
        },
      );
    }
    const last = await tx
      .select({ position: max(mapPoints.position) })
      .from(mapPoints)
      .where(eq(mapPoints.collectionId, collection.uuid))
      .get();
    let position = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
    for (const point of moving) {
      await tx
        .update(mapPoints)
        .set({ collectionId: collection.uuid, position: position++, updatedAt: now })
        .where(eq(mapPoints.id, point.id));
    }
    if (moving.length > 0) {
      const sources = moving.map((point) => point.collectionId).filter((id): id is string => id !== null);
      await recount(tx, [collection.uuid, ...sources], now);
    }
    return answer(
      tx,
      collection.uuid,
      userId,
      moving.map((point) => point.id),
    );
  });
}

/** Takes the caller's points out of their collection (they become orphans); points not in it are left where they are. */
export async function removePointsFromCollection(
  deps: TDepsOf<'db' | 'now'>,
  { uuid, userId, pointUuids }: TMoveInput,
): Promise<TMembershipChange> {
  const now = deps.now();
  return transaction(deps.db, async (tx) => {
    const collection = await ownedCollection(tx, uuid, userId, 'remove points from');
    const leaving = (await ownPoints(tx, userId, pointUuids))
      .filter((point) => point.collectionId === collection.uuid)
      .map((point) => point.id);
    for (const part of chunks(leaving)) {
      await tx
        .update(mapPoints)
        .set({ collectionId: null, position: 0, updatedAt: now })
        .where(and(inArray(mapPoints.id, part), eq(mapPoints.collectionId, collection.uuid)));
    }
    if (leaving.length > 0) await recount(tx, [collection.uuid], now);
    return answer(tx, collection.uuid, userId, leaving);
  });
}
