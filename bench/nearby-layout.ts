/** bench/nearby.ts's map points: the spots, the signed-in caller and the fill of a database file with them (the layout of its header). */
import { insertInChunks } from '../db/bulk';
import type { TDb } from '../db/client';
import { mapCollectionShares, mapCollections, mapPoints, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { hashPassword } from '../server/infra/password';
import { random } from '../server/seed/random';
import { benchUuid, BENCH_PASSWORD } from './generate';

/** The spot of the issue: 2 public points, 50,000 private ones 50 to 150 km away. */
export const SPOT = { latitude: 10.5, longitude: 20.05 };
/** 5,000 public points within 20 km: more than the cap of an answer. */
export const DENSE = { latitude: -30, longitude: 100 };
const PER_OWNER = 10_000;
/** The signed-in caller's username (its password: BENCH_PASSWORD). */
export const CALLER = 'nearby_caller';
export const CALLER_ID = benchUuid(31, 9999);

type TPlace = { latitude: number; longitude: number };
const next = random(31);
const uniform = (low: number, high: number) => low + next() * (high - low);
/** A place `km` from `from` in a random direction (flat-earth offsets: close enough at these distances). */
function around(from: TPlace, minKm: number, maxKm: number): TPlace {
  const km = uniform(minKm, maxKm);
  const bearing = uniform(0, 2 * Math.PI);
  const latitude = from.latitude + (km / 111.2) * Math.cos(bearing);
  return {
    latitude,
    longitude: from.longitude + (km / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin(bearing),
  };
}

/** Fills `file` with at least `totalPoints` points: users, collections, points and shares as the header says, in transactions of a few thousand rows. */
export async function fill(db: TDb, totalPoints: number): Promise<void> {
  const now = new Date();
  const caller = CALLER_ID;
  const owner = (index: number) => benchUuid(31, index);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const userRows = Array.from({ length: Math.ceil(totalPoints / PER_OWNER) + 20 }, (_, i) => ({
    id: owner(i),
    username: `nearby${i}`,
    usernameKey: `nearby${i}`,
    email: `nearby${i}@bench.example`,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  }));
  userRows.push({
    id: caller,
    username: CALLER,
    usernameKey: CALLER,
    email: `${CALLER}@bench.example`,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await transaction(db, (tx) => insertInChunks(tx, users, userRows));

  let collections = 0;
  let made = 0;
  /** `count` points of `ownerId` at `place()`: half in new collections of `isPublic` (shared with the caller when `shared`), half orphans of `isPublic`. */
  async function add(
    ownerId: string,
    count: number,
    isPublic: boolean,
    place: () => TPlace,
    shared = false,
    perCollection = 1000,
  ): Promise<void> {
    const inCollections = Math.ceil(count / 2);
    await transaction(db, async (tx) => {
      const points: (typeof mapPoints.$inferInsert)[] = [];
      for (let start = 0; start < inCollections; start += perCollection) {
        const id = benchUuid(32, collections++);
        const size = Math.min(perCollection, inCollections - start);
        await tx.insert(mapCollections).values({
          id,
          authorId: ownerId,
          title: `collection ${collections}`,
          isPublic,
          pointCount: size,
          createdAt: now,
          updatedAt: now,
        });
        if (shared) await tx.insert(mapCollectionShares).values({ collectionId: id, userId: caller, createdAt: now });
        for (let position = 0; position < size; position++)
          points.push({
            id: benchUuid(33, made++),
            ownerId,
            collectionId: id,
            position,
            title: `point ${made}`,
            tags: [],
            createdAt: now,
            updatedAt: now,
            ...place(),
          });
      }
      for (let i = inCollections; i < count; i++)
        points.push({
          id: benchUuid(33, made++),
          ownerId,
          title: `point ${made}`,
          tags: [],
          isPublic,
          createdAt: now,
          updatedAt: now,
          ...place(),
        });
      await insertInChunks(tx, mapPoints, points);
    });
  }
  const band = () => ({ latitude: uniform(5, 16), longitude: uniform(-180, 180) });
  const globe = () => ({ latitude: uniform(-85, 85), longitude: uniform(-180, 180) });
  for (let i = 0; i < 5; i++) await add(owner(i), PER_OWNER, false, () => around(SPOT, 50, 150));
  await add(owner(5), 2, true, () => around(SPOT, 5, 300));
  for (let i = 0; i < 4; i++) await add(owner(6 + i), PER_OWNER, true, globe);
  await add(owner(10), 5_000, true, () => around(DENSE, 0, 20));
  await add(caller, 500, false, () => around(SPOT, 0, 300));
  await add(owner(11), 2_000, false, () => around(SPOT, 0, 300), true, 100);
  for (let i = 12; made < totalPoints; i++) await add(owner(i), Math.min(PER_OWNER, totalPoints - made), false, band);
  console.log(`filled: ${made} points, ${collections} collections, ${userRows.length} users`);
}
