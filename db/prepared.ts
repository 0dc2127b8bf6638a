import type { TDb } from './types';

const byDatabase = new WeakMap<object, Map<string, unknown>>();

/**
 * A value built on first use and kept for as long as the database object lives, one per `key`:
 * prepared queries, memos of answers (server/infra/cache/war-memo.ts). `key` must name one thing.
 */
export function perDatabase<T>(db: TDb, key: string, build: (db: TDb) => T): T {
  let values = byDatabase.get(db);
  if (!values) {
    values = new Map();
    byDatabase.set(db, values);
  }
  let value = values.get(key) as T | undefined;
  if (value === undefined) {
    value = build(db);
    values.set(key, value);
  }
  return value;
}

/**
 * A drizzle prepared query, built on first use and kept per database. Hot read paths use it so a
 * request neither rebuilds the SQL text nor re-prepares the statement (measured: about half of the
 * CPU time of /stateOfWar/latest went to both, see bench/README.md). `key` must name one query
 * shape; values change only through `sql.placeholder`. Drizzle prepares on every driver (libSQL too).
 */
export const prepared: <T>(db: TDb, key: string, build: (db: TDb) => T) => T = perDatabase;
