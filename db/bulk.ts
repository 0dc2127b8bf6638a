import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { TDb } from './types';

/**
 * Bound values per multi-row INSERT: well under SQLite's limit (32,766) and small enough for one
 * request to a libSQL server. Measured (bench/README.md, "bulk writes"): against sqld over HTTP a
 * season of war snapshots goes from one round trip per row to a few dozen statements.
 */
const VALUES_PER_STATEMENT = 8_000;

/**
 * Inserts rows with as few statements as the bound-value limit allows: one round trip per statement
 * on a libSQL server, where a row per statement costs a round trip per row. Call inside a
 * transaction when the rows belong together.
 */
export async function insertInChunks<TTable extends SQLiteTable>(
  db: TDb,
  table: TTable,
  rows: TTable['$inferInsert'][],
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(getTableColumns(table)).length;
  const rowsPerStatement = Math.max(1, Math.floor(VALUES_PER_STATEMENT / columns));
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    await db.insert(table).values(rows.slice(start, start + rowsPerStatement) as never);
    onProgress?.(Math.min(rows.length, start + rowsPerStatement), rows.length);
  }
}
