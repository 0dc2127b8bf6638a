import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { fileURLToPath } from 'node:url';
import * as schema from './schema';
import { registerTransactionRunner, sqliteTransactionRunner } from './transaction';

/**
 * The database as every service sees it: drizzle over SQLite, used with `await` only, so the same
 * code runs on a synchronous (better-sqlite3) or asynchronous (libSQL) driver.
 */
export type TDb = BaseSQLiteDatabase<'sync' | 'async', unknown, typeof schema>;

export interface TDatabase {
  db: TDb;
  /** The file path, or ':memory:'. */
  file: string;
  /** Applies pending drizzle-kit migrations from db/migrations. */
  migrate(): void;
  /** Writes a consistent copy of the live database to a file (SQLite online backup). */
  backup(destination: string): Promise<void>;
  /** Runs PRAGMA integrity_check; returns 'ok' or the problems found. */
  integrityCheck(): string;
  close(): void;
}

export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Turns `file:./data/x.db` or `file::memory:` into a path better-sqlite3 opens. */
export function fileFromUrl(url: string): string {
  if (!url.startsWith('file:')) throw new Error(`Unsupported DATABASE_URL "${url}": expected file:<path>`);
  const rest = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  return rest === ':memory:' ? ':memory:' : rest;
}

export function openDatabase(url: string): TDatabase {
  const file = fileFromUrl(url);
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const client = new Database(file);
  client.pragma('journal_mode = WAL');
  client.pragma('foreign_keys = ON');
  client.pragma('busy_timeout = 5000');
  client.pragma('synchronous = NORMAL');
  const db = drizzle({ client, schema });
  registerTransactionRunner(db, sqliteTransactionRunner(client));
  return {
    db: db as unknown as TDb,
    file,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    backup: async (destination) => {
      mkdirSync(dirname(resolve(destination)), { recursive: true });
      await client.backup(destination);
    },
    integrityCheck: () => {
      const rows = client.pragma('integrity_check') as { integrity_check: string }[];
      return rows.map((row) => row.integrity_check).join('; ');
    },
    close: () => {
      if (client.open) client.close();
    },
  };
}

/** Liveness probe used by /api/health. */
export async function pingDatabase(db: TDb): Promise<boolean> {
  const row = await db.get<{ ok: number }>(sql`select 1 as ok`);
  return row?.ok === 1;
}
