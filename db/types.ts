import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema';

/**
 * The database as every service sees it: drizzle over SQLite, used with `await` only, so the same
 * code runs on a synchronous (better-sqlite3) or asynchronous (libSQL) driver. Every statement passes
 * the database's gate (db/gate.ts): none runs inside another call's transaction (db/transaction.ts).
 */
export type TDb = BaseSQLiteDatabase<'sync' | 'async', unknown, typeof schema>;
