/**
 * Rows written into a database migrated only part of the way (test/platform/db-*-migrations.test.ts):
 * drizzle's insert names every column of today's schema, which such tables do not have yet.
 */
import { randomUUID } from 'node:crypto';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../db/client';
import { assemblies } from '../../db/schema';

/** An assembly row with one tag and an empty loadout, public or not, trashed at `deletedAt` or not. */
export function taggedAssembly(
  creatorId: string,
  tag: string,
  name: string,
  isPublic: boolean,
  deletedAt: Date | null,
  now: Date,
) {
  return {
    uuid: randomUUID(),
    creatorId,
    name,
    shipId: 'hulk',
    weapons: '[]',
    furnitures: '[]',
    tags: JSON.stringify([tag]),
    isPublic,
    createdAt: now,
    updatedAt: now,
    deletedAt,
  };
}

/**
 * Inserts rows into `assemblies` of a database at an older migration: drizzle's insert names every
 * column of today's schema (hot_rank of 0011 too), which such a table does not have yet.
 */
export async function insertAtOldSchema(db: TDatabase['db'], rows: ReturnType<typeof taggedAssembly>[]): Promise<void> {
  for (const r of rows) {
    await db.run(sql`insert into assemblies (uuid, creator_id, name, ship_id, weapons, furnitures, tags, is_public, created_at, updated_at, deleted_at)
      values (${r.uuid}, ${r.creatorId}, ${r.name}, ${r.shipId}, ${r.weapons}, ${r.furnitures}, ${r.tags}, ${r.isPublic ? 1 : 0}, ${r.createdAt.getTime()}, ${r.updatedAt.getTime()}, ${r.deletedAt?.getTime() ?? null})`);
  }
}

/** A user row in a database at an older migration (drizzle's insert would name 0016's profile columns). */
export async function insertUserAtOldSchema(db: TDatabase['db'], id: string): Promise<void> {
  const now = Date.now();
  await db.run(
    sql`insert into users (id, username, username_key, email, password_hash, created_at, updated_at) values (${id}, ${id}, ${id}, ${`${id}@example.test`}, 'x', ${now}, ${now})`,
  );
}

/** The rowids the FTS5 index matches for an FTS5 query, in order. */
export async function ftsIds(db: TDatabase['db'], match: string): Promise<number[]> {
  return (
    await db.all<{ id: number }>(
      sql`select rowid as id from assemblies_fts where assemblies_fts match ${match} order by rowid`,
    )
  ).map((r) => Number(r.id));
}

/** Columns added to assemblies after migration 0011 (0014: the web client's extras). */
const ASSEMBLY_COLUMNS_AFTER_0011 = new Set(['client']);

/**
 * Inserts assembly rows into a database migrated only to 0011: drizzle's insert names every column of
 * today's schema, so the rows go in through SQL naming the columns 0011 has.
 */
export async function insertAtSchemaOf0011(
  db: TDatabase['db'],
  rows: (typeof assemblies.$inferInsert)[],
): Promise<void> {
  const columns = Object.entries(getTableColumns(assemblies)).filter(
    ([, column]) => !ASSEMBLY_COLUMNS_AFTER_0011.has(column.name),
  );
  for (const row of rows) {
    const present = columns.filter(([key]) => (row as Record<string, unknown>)[key] !== undefined);
    const values: SQL[] = present.map(([key, column]) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null ? sql`null` : sql`${column.mapToDriverValue(value)}`;
    });
    await db.run(
      sql`insert into assemblies (${sql.raw(present.map(([, column]) => `"${column.name}"`).join(', '))}) values (${sql.join(values, sql`, `)})`,
    );
  }
}
