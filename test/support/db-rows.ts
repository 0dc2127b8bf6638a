/** Rows and checks shared by the database suites of test/platform (db-remote, db-batch, db-replica-writes). */
import { sql } from 'drizzle-orm';
import type { TDatabase } from '../../db/client';

/** A user row with `id` as every unique field. */
export const userRow = (id: string) => ({
  id,
  username: id,
  usernameKey: id,
  email: `${id}@example.test`,
  passwordHash: 'x',
  createdAt: new Date(),
  updatedAt: new Date(),
});

/** The ids of the users whose id starts with `prefix`, sorted. */
export async function userIds(database: TDatabase, prefix: string): Promise<string[]> {
  const rows = await database.db.all<{ id: string }>(
    sql`select id from users where id like ${`${prefix}%`} order by id`,
  );
  return rows.map((found) => found.id);
}

/** `promise`, or a rejection once `ms` have passed (what a test shows instead of hanging). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref()),
  ]);
}
