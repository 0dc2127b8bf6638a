/**
 * The users and assemblies stages of bench/generate.ts: the generated sailors sharing one password
 * hash, and their public and private loadouts, inserted in large transactions through prepared
 * statements.
 */
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { assemblies, assemblyViews, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { nameSkeleton } from '../server/domains/user/names';
import { random } from '../server/seed/random';
import { benchUuid, DAY, FRONT_WEAPONS, HULLS, SIDE_WEAPONS, WORDS } from './generate-vocabulary';

/** Rows per transaction. */
const BATCH = 25_000;

/** Inserts `count` users (sailor0, sailor1, ...), every one with `passwordHash`; returns their ids in order. */
export async function insertUsers(
  db: TDb,
  count: number,
  now: Date,
  passwordHash: string,
  advance: (done: number) => void,
): Promise<string[]> {
  const userIds: string[] = [];
  // Prepared on each transaction's own `tx`: a statement of the outer db would wait for the transaction to end (db/transaction.ts).
  const insertOn = (tx: TDb) =>
    tx
      .insert(users)
      .values({
        id: sql.placeholder('id'),
        username: sql.placeholder('username'),
        usernameKey: sql.placeholder('usernameKey'),
        usernameSkeleton: sql.placeholder('usernameSkeleton'),
        email: sql.placeholder('email'),
        passwordHash,
        role: 'user',
        createdAt: now,
        updatedAt: now,
      })
      .prepare();
  for (let start = 0; start < count; start += BATCH) {
    await transaction(db, async (tx) => {
      const insert = insertOn(tx);
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const id = benchUuid(1, i);
        userIds.push(id);
        await insert.run({
          id,
          username: `sailor${i}`,
          usernameKey: `sailor${i}`,
          usernameSkeleton: nameSkeleton(`sailor${i}`),
          email: `sailor${i}@bench.example`,
        });
      }
    });
    advance(userIds.length);
  }
  return userIds;
}

/**
 * Inserts `count` assemblies of `userIds`, oldest first over the year before `now`: every 20th one
 * private, random names, hulls, weapons, tags, likes, views and ratings (the same ones for the same count).
 */
export async function insertAssemblies(
  db: TDb,
  count: number,
  now: Date,
  userIds: string[],
  advance: (done: number) => void,
): Promise<void> {
  const next = random(7);
  const insertOn = (tx: TDb) =>
    tx
      .insert(assemblies)
      .values({
        uuid: sql.placeholder('uuid'),
        creatorId: sql.placeholder('creatorId'),
        name: sql.placeholder('name'),
        shipId: sql.placeholder('shipId'),
        weapons: sql.placeholder('weapons'),
        armor: sql.placeholder('armor'),
        furnitures: sql.placeholder('furnitures'),
        description: sql.placeholder('description'),
        tags: sql.placeholder('tags'),
        isPublic: sql.placeholder('isPublic'),
        likes: sql.placeholder('likes'),
        ratingSum: sql.placeholder('ratingSum'),
        ratingCount: sql.placeholder('ratingCount'),
        createdAt: sql.placeholder('createdAt'),
        updatedAt: sql.placeholder('updatedAt'),
      })
      .prepare();
  // The insert trigger made its assembly_views row (migration 0017); last_insert_rowid() is the assembly's again after it.
  const viewsOn = (tx: TDb) =>
    tx
      .update(assemblyViews)
      .set({ views: sql`${sql.placeholder('views')}` })
      .where(eq(assemblyViews.assemblyId, sql`last_insert_rowid()`))
      .prepare();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const span = 365 * DAY;
  for (let start = 0; start < count; start += BATCH) {
    await transaction(db, async (tx) => {
      const insert = insertOn(tx);
      const setViews = viewsOn(tx);
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const side = pick(SIDE_WEAPONS);
        const ratingCount = Math.floor(next() * 6);
        // Oldest first, so ids and created_at grow together as on a live site.
        const createdAt = now.getTime() - span + Math.floor((i / count) * span);
        // Drawn in the order of earlier versions (views between likes and ratings), so the same seed makes the same data.
        const { views, ...values } = {
          uuid: benchUuid(2, i),
          creatorId: userIds.length ? userIds[Math.floor(next() * userIds.length)]! : userIds[0],
          name: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
          shipId: pick(HULLS),
          weapons: JSON.stringify([
            { slot: 'leftSideWeapon', itemId: side },
            { slot: 'rightSideWeapon', itemId: side },
            { slot: 'frontWeapon', itemId: pick(FRONT_WEAPONS) },
          ]),
          armor: null,
          furnitures: '[]',
          description: 'Generated for the benchmarks.',
          tags: JSON.stringify([pick(WORDS), pick(WORDS)]),
          isPublic: i % 20 !== 0,
          likes: Math.floor(next() * 50),
          views: Math.floor(next() * 2000),
          ratingSum: ratingCount * (1 + Math.floor(next() * 5)),
          ratingCount,
          createdAt: new Date(createdAt),
          updatedAt: new Date(createdAt),
        };
        await insert.run(values);
        await setViews.run({ views });
      }
    });
    advance(Math.min(count, start + BATCH));
  }
}
