import { mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient, type Client, type ResultSet } from '@libsql/client';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleBetterSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateBetterSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { migrate as migrateLibsql } from 'drizzle-orm/libsql/migrator';
import { runnerDatabase } from './better-sqlite3-async';
import { DatabaseGate } from './gate';
import { ReplicaSync } from './replica';
import * as schema from './schema';
import { libsqlTransactionRunner, registerTransactionRunner, sqliteTransactionRunner } from './transaction';

export type { TDb } from './types';
import type { TDb } from './types';

export type TDatabaseDriver = 'better-sqlite3' | 'libsql';

export interface TDatabase {
  db: TDb;
  driver: TDatabaseDriver;
  /** The file path, ':memory:', or the URL of a libSQL server (never its token). */
  file: string;
  /** True for a libSQL server reached over the network: no file here to back up. */
  remote: boolean;
  /** Set when the file is an embedded replica of a libSQL primary (DATABASE_SYNC_URL). */
  replica?: ReplicaSync;
  /** Applies pending drizzle-kit migrations from db/migrations (tests may name another folder, e.g. a prefix of it). */
  migrate(migrationsFolder?: string): Promise<void>;
  /** Writes a consistent copy of the live database to a file (online backup, or VACUUM INTO on libSQL). */
  backup(destination: string): Promise<void>;
  /** Runs PRAGMA integrity_check; returns 'ok' or the problems found. */
  integrityCheck(): Promise<string>;
  close(): void;
}

export interface TOpenOptions {
  /** Unset: better-sqlite3 for file: URLs, libsql for server URLs. */
  driver?: TDatabaseDriver;
  /** libSQL server token (Turso). */
  authToken?: string;
  /** A libSQL server: the deadline of one HTTP request to it (DATABASE_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * With a file: URL, the libSQL primary this file is an embedded replica of (DATABASE_SYNC_URL):
   * reads run on the file, writes and transactions on the primary (db/replica.ts).
   */
  syncUrl?: string;
}

/** db/migrations, beside this file (in the production bundle, dist/migrations, beside the bundle). */
export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

let defaultMigrationsFolder = MIGRATIONS_FOLDER;

/**
 * Where `migrate()` reads the migrations from unless told: the single executable, which has no files
 * beside its code, writes them from its assets to a folder of its own first (server/binary/main.ts).
 */
export function useMigrationsFolder(folder: string): void {
  defaultMigrationsFolder = folder;
}

/** How long a writer waits for another connection's (or process's) write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Turns `file:./data/x.db` or `file::memory:` into a path SQLite opens. */
export function fileFromUrl(url: string): string {
  if (!url.startsWith('file:')) throw new Error(`Unsupported DATABASE_URL "${url}": expected file:<path>`);
  const rest = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  return rest === ':memory:' ? ':memory:' : rest;
}

export function driverFor(url: string, driver?: TDatabaseDriver): TDatabaseDriver {
  const local = url.startsWith('file:');
  if (driver === 'better-sqlite3' && !local) {
    throw new Error(`better-sqlite3 opens only file: URLs, not "${url}": use the libsql driver`);
  }
  return driver ?? (local ? 'better-sqlite3' : 'libsql');
}

export function openDatabase(url: string, options: TOpenOptions = {}): TDatabase {
  if (options.syncUrl) {
    // An embedded replica is libSQL's own feature.
    if (options.driver === 'better-sqlite3')
      throw new Error('DATABASE_SYNC_URL (an embedded replica) needs the libsql driver');
    return openLibsql(url, options);
  }
  return driverFor(url, options.driver) === 'libsql' ? openLibsql(url, options) : openBetterSqlite(url);
}

function integrityText(rows: { integrity_check: string }[]): string {
  return rows.map((row) => row.integrity_check).join('; ');
}

function openBetterSqlite(url: string): TDatabase {
  const file = fileFromUrl(url);
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const client = new Database(file);
  client.pragma('journal_mode = WAL');
  client.pragma('foreign_keys = ON');
  client.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  client.pragma('synchronous = NORMAL');
  // `base` runs statements directly: migrations at start-up, and each transaction's own statements.
  const base = drizzleBetterSqlite({ client, schema });
  const gate = new DatabaseGate();
  const db = runnerDatabase(client, base, (run) => gate.statement(run));
  registerTransactionRunner(db, sqliteTransactionRunner(client, base, gate));
  return {
    db,
    driver: 'better-sqlite3',
    file,
    remote: false,
    migrate: async (migrationsFolder = defaultMigrationsFolder) => migrateBetterSqlite(base, { migrationsFolder }),
    backup: async (destination) => {
      mkdirSync(dirname(resolve(destination)), { recursive: true });
      await client.backup(destination);
    },
    integrityCheck: async () => integrityText(client.pragma('integrity_check') as { integrity_check: string }[]),
    close: () => {
      if (client.open) client.close();
    },
  };
}

/**
 * @libsql/client: a local file (through libSQL's own SQLite) or a libSQL server / Turso database
 * over the network. libSQL turns foreign keys on for every connection of its pool by itself;
 * `timeout` is each connection's busy timeout.
 */
function openLibsql(url: string, { authToken, timeoutMs = 10_000, syncUrl }: TOpenOptions): TDatabase {
  const local = url.startsWith('file:');
  if (syncUrl && (!local || url === 'file::memory:'))
    throw new Error('DATABASE_SYNC_URL needs DATABASE_URL to be a file: URL (the local replica)');
  // A replica's transactions run on the primary, over the network: they take more than one turn.
  const sameTurn = local && !syncUrl;
  const file = local ? fileFromUrl(url) : url.replace(/\?.*$/, '');
  let clientUrl = url;
  if (local) {
    if (file === ':memory:') clientUrl = ':memory:';
    else {
      mkdirSync(dirname(resolve(file)), { recursive: true });
      clientUrl = pathToFileURL(resolve(file)).href;
    }
  }
  const client = createClient({
    url: clientUrl,
    authToken,
    timeout: BUSY_TIMEOUT_MS,
    ...(syncUrl && { syncUrl, readYourWrites: true }),
    // Over HTTP every request has a deadline: a hung server fails the call (503, db/unavailable.ts)
    // instead of holding it, and the gate behind it, for ever.
    ...(!local && {
      fetch: (input: Request | string, init?: RequestInit) =>
        fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    }),
  });
  const replica = syncUrl ? new ReplicaSync(client) : undefined;
  if (local && !replica) {
    // Per connection, and the pool cannot run it on the ones it opens later; in practice the pool
    // keeps reusing its first connection (our transactions never overlap other queries), and
    // missing it elsewhere costs only speed (an fsync per commit), never correctness.
    void client.execute('PRAGMA synchronous = NORMAL').catch(() => undefined);
  }
  // `base` runs statements directly: migrations at start-up, and transactions (each on its own connection or stream).
  const base = drizzleLibsql({ client, schema });
  const gate = new DatabaseGate();
  const db = drizzleLibsql({ client: gatedClient(client, gate, replica), schema });
  registerTransactionRunner(
    db,
    libsqlTransactionRunner(base, gate, { sameTurn, afterCommit: replica && (() => replica.afterWrite()) }),
  );
  return {
    db: db as unknown as TDb,
    driver: 'libsql',
    file,
    remote: !local,
    replica,
    migrate: async (migrationsFolder = defaultMigrationsFolder) => {
      // WAL is a property of the file (every later connection sees it); a server manages its own
      // journal, and so does libSQL for a replica's file.
      if (local && !replica && file !== ':memory:') await client.execute('PRAGMA journal_mode = WAL');
      if (replica) await replica.sync();
      await migrateLibsql(base, { migrationsFolder });
      if (replica) await replica.sync();
    },
    backup: async (destination) => {
      if (!local || file === ':memory:') {
        throw new Error(
          'backup writes a local file: a libSQL server is backed up by the server itself (Turso point-in-time restore, sqld snapshots)',
        );
      }
      mkdirSync(dirname(resolve(destination)), { recursive: true });
      // VACUUM INTO refuses an existing file; the CLI already asked for --force before overwriting.
      rmSync(destination, { force: true });
      await client.execute({ sql: 'VACUUM INTO ?', args: [resolve(destination)] });
    },
    integrityCheck: async () => {
      const result = await client.execute('PRAGMA integrity_check');
      return integrityText(result.rows as unknown as { integrity_check: string }[]);
    },
    close: () => {
      if (!client.closed) client.close();
    },
  };
}

/**
 * The libSQL client as drizzle sees it outside transactions: every statement through the gate. On a
 * replica, a statement first syncs the copy if another instance wrote past it, and a statement that
 * changed rows tells the other instances (db/replica.ts).
 */
function gatedClient(client: Client, gate: DatabaseGate, replica?: ReplicaSync): Client {
  const run = <T>(work: () => Promise<T>, wrote: (result: T) => boolean) =>
    gate.statement(async () => {
      if (!replica) return work();
      await replica.beforeRead();
      const result = await work();
      if (wrote(result)) await replica.afterWrite();
      return result;
    });
  const changedRows = (result: ResultSet) => result.rowsAffected > 0;
  return {
    execute: ((...args: Parameters<Client['execute']>) =>
      run(() => client.execute(...(args as [string])), changedRows)) as Client['execute'],
    batch: (statements, mode) =>
      run(
        () => client.batch(statements, mode),
        (results) => results.some(changedRows),
      ),
    migrate: (statements) =>
      run(
        () => client.migrate(statements),
        () => true,
      ),
    executeMultiple: (text) =>
      run(
        () => client.executeMultiple(text),
        () => true,
      ),
    transaction: () => Promise.reject(new Error('Use transaction() from db/transaction.ts')),
    sync: () => client.sync(),
    close: () => client.close(),
    reconnect: () => client.reconnect(),
    get closed() {
      return client.closed;
    },
    get protocol() {
      return client.protocol;
    },
  };
}

/** Liveness probe used by /api/health. */
export async function pingDatabase(db: TDb): Promise<boolean> {
  const row = await db.get<{ ok: number }>(sql`select 1 as ok`);
  return row?.ok === 1;
}
