/**
 * Sharing a collection with named users (the web client's `sharedUsers`). An entry is a user id (a
 * UUID: no username can be one, usernames are at most 32 letters, digits, _ and -) or a username in
 * any case. Shares give read access only (access.ts says why). The list is shown to the author.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { mapCollectionShares, users } from '../../../db/schema';
import { AppError } from '../../errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function invalid(index: number, message: string): AppError {
  const path = `sharedUsers[${index}]`;
  return new AppError('BAD_REQUEST', `Invalid input: ${path}: ${message}`, { issues: [{ path, message }] });
}

/** The user ids `entries` name, each once, in the order given. Unknown users and the author are a 400 naming the entry. */
export async function resolveSharedUsers(db: TDb, entries: string[], authorId: string): Promise<string[]> {
  if (entries.length === 0) return [];
  const ids = entries.filter((entry) => UUID.test(entry)).map((entry) => entry.toLowerCase());
  const keys = entries.filter((entry) => !UUID.test(entry)).map((entry) => entry.toLowerCase());
  const byId = new Set<string>();
  const byKey = new Map<string, string>();
  if (ids.length > 0)
    for (const row of await db.select({ id: users.id }).from(users).where(inArray(users.id, ids)).all())
      byId.add(row.id.toLowerCase());
  if (keys.length > 0) {
    for (const row of await db
      .select({ id: users.id, key: users.usernameKey })
      .from(users)
      .where(inArray(users.usernameKey, keys))
      .all())
      byKey.set(row.key, row.id);
  }
  const resolved: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const lower = entry.toLowerCase();
    const id = UUID.test(entry) ? (byId.has(lower) ? lower : undefined) : byKey.get(lower);
    if (id === undefined) throw invalid(index, `no user "${entry}"`);
    if (id === authorId.toLowerCase())
      throw invalid(index, 'is the author: a collection is always readable by its author');
    if (!resolved.includes(id)) resolved.push(id);
  }
  return resolved;
}

/** Replaces the collection's shares by `userIds` (inside the caller's transaction). */
export async function replaceShares(tx: TDb, collectionId: string, userIds: string[], now: Date): Promise<void> {
  await tx.delete(mapCollectionShares).where(eq(mapCollectionShares.collectionId, collectionId));
  if (userIds.length > 0) {
    await tx
      .insert(mapCollectionShares)
      .values(userIds.map((userId) => ({ collectionId, userId, canEdit: false, createdAt: now })));
  }
}

/** The usernames each of `collectionIds` is shared with, in username order. */
export async function sharedUsernames(db: TDb, collectionIds: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(collectionIds.map((id) => [id, []]));
  if (collectionIds.length === 0) return result;
  const rows = await db
    .select({ collectionId: mapCollectionShares.collectionId, username: users.username })
    .from(mapCollectionShares)
    .innerJoin(users, eq(users.id, mapCollectionShares.userId))
    .where(inArray(mapCollectionShares.collectionId, collectionIds))
    .orderBy(asc(users.usernameKey))
    .all();
  for (const row of rows) result.get(row.collectionId)?.push(row.username);
  return result;
}
