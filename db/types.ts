import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema';

/**
 * The database as every service sees it: drizzle over SQLite, used with `await` only, so the same
 * code runs on a synchronous (better-sqlite3) or asynchronous (libSQL) driver. No statement runs inside
 * another call's transaction (db/transaction.ts): on a local file every statement passes the database's
 * gate (db/gate.ts); on a libSQL server each transaction has a connection of the server's to itself.
 */
export type TDb = BaseSQLiteDatabase<'sync' | 'async', unknown, typeof schema>;
