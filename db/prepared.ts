import type { TDb } from './client';

const byDatabase = new WeakMap<object, Map<string, unknown>>();

/**
 * A drizzle prepared query, built on first use and kept per database. Hot read paths use it so a
 * request neither rebuilds the SQL text nor re-prepares the statement (measured: about half of the
 * CPU time of /stateOfWar/latest went to both, see bench/README.md). `key` must name one query
 * shape; values change only through `sql.placeholder`. Drizzle prepares on every driver (libSQL too).
 */
export function prepared<T>(db: TDb, key: string, build: (db: TDb) => T): T {
  let queries = byDatabase.get(db);
  if (!queries) {
    queries = new Map();
    byDatabase.set(db, queries);
  }
  let query = queries.get(key) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(key, query);
  }
  return query;
}
