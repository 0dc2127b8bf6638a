// Before @libsql/client: it quiets libSQL's own log lines on stdout.
import './libsql-log';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleBetterSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateBetterSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { migrate as migrateLibsql } from 'drizzle-orm/libsql/migrator';
import { runnerDatabase } from './better-sqlite3-async';
import { DatabaseGate } from './gate';
import { outsideTransactions } from './outside-transactions';
import { openRemoteClient } from './remote';
import { ReplicaSync } from './replica';
import { openReplicaReader } from './replica-reader';
import { ReplicaSyncThread } from './replica-sync-thread';
import { whileBusy } from './unavailable';
import * as schema from './schema';
import {
  libsqlTransactionRunner,
  registerBatchRunner,
  registerTransactionRunner,
  remoteTransactionRunner,
  sqliteTransactionRunner,
} from './transaction';

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
  /** A libSQL server: the deadline of one request to it (DATABASE_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * With a file: URL, the libSQL primary this file is an embedded replica of (DATABASE_SYNC_URL):
   * reads run on the file, writes and transactions on the primary (db/replica.ts).
   */
  syncUrl?: string;
  /** A libSQL server: how many transactions of this process may be open on it at once (db/remote.ts). */
  maxTransactions?: number;
}

/**
 * Transactions of one process open at once on a libSQL server. The server lets one of them write at
 * a time (BEGIN IMMEDIATE takes its lock), and db/hrana.ts sends a BEGIN only once the one before it
 * holds that lock, so that transactions keep the order they were started in: the second one's BEGIN
 * waits at the server, ready the moment the first commits, which saves it a round trip over a real
 * network; a third would wait here for that BEGIN all the same. 1 sends no BEGIN before the last
 * COMMIT is answered (bench/README.md, "Scaling out", measures both). Statements outside
 * transactions never wait for these.
 */
export const REMOTE_TRANSACTIONS = 2;

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
    migrate: (migrationsFolder = defaultMigrationsFolder) =>
      whileBusy(async () => {
        // WAL is a property of the file, set here as on libSQL: switching a new file to it takes a lock
        // SQLite does not wait for, so two processes opening one new file at once could not both do
        // it on open (SQLITE_BUSY for one of them in 2 of 40 pairs).
        if (file !== ':memory:') client.pragma('journal_mode = WAL');
        migrateBetterSqlite(base, { migrationsFolder });
      }),
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
 * @libsql/client: a local file (through libSQL's own SQLite), an embedded replica of a libSQL server,
 * or a libSQL server / Turso database over the network (db/remote.ts: Hrana streams over a WebSocket).
 * libSQL turns foreign keys on for every connection by itself; `timeout` is each local connection's
 * busy timeout.
 */
function openLibsql(url: string, options: TOpenOptions): TDatabase {
  const local = url.startsWith('file:');
  if (options.syncUrl && (!local || url === 'file::memory:'))
    throw new Error('DATABASE_SYNC_URL needs DATABASE_URL to be a file: URL (the local replica)');
  if (!local) return openLibsqlServer(url, options);
  if (options.syncUrl) return openReplica(url, options.syncUrl, options);
  const file = fileFromUrl(url);
  let clientUrl = ':memory:';
  if (file !== ':memory:') {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    clientUrl = pathToFileURL(resolve(file)).href;
  }
  const client = createClient({ url: clientUrl, authToken: options.authToken, timeout: BUSY_TIMEOUT_MS });
  // `base` runs statements directly: migrations at start-up, and a local file's transactions.
  const base = drizzleLibsql({ client, schema });
  // Per connection, and the pool cannot run it on the ones it opens later; in practice the pool
  // keeps reusing its first connection (our transactions never overlap other queries), and
  // missing it elsewhere costs only speed (an fsync per commit), never correctness.
  void client.execute('PRAGMA synchronous = NORMAL').catch(() => undefined);
  const gate = new DatabaseGate();
  const db = drizzleLibsql({ client: outsideTransactions(client, { gate }), schema });
  registerTransactionRunner(db, libsqlTransactionRunner(base, gate));
  return {
    db: db as unknown as TDb,
    driver: 'libsql',
    file,
    remote: false,
    migrate: (migrationsFolder = defaultMigrationsFolder) =>
      whileBusy(
        async () => {
          // WAL is a property of the file (every later connection sees it).
          if (file !== ':memory:') await client.execute('PRAGMA journal_mode = WAL');
          await migrateLibsql(base, { migrationsFolder });
        },
        // A statement that met the busy lock stays open on its connection (a retry on it is SQLITE_LOCKED).
        () => client.reconnect(),
      ),
    backup: (destination) => vacuumInto(client, file, destination),
    integrityCheck: () => integrityCheckOf(client),
    close: () => {
      if (!client.closed) client.close();
    },
  };
}

/**
 * An embedded replica (DATABASE_SYNC_URL) in the file: a thread of its own keeps the file up to the
 * primary (db/replica-sync-thread.ts), this thread reads it through a plain connection (db/replica.ts),
 * and writes, transactions and migrations run on the primary, each transaction on a stream of its own
 * (db/remote.ts).
 */
function openReplica(url: string, syncUrl: string, options: TOpenOptions): TDatabase {
  const file = fileFromUrl(url);
  mkdirSync(dirname(resolve(file)), { recursive: true });
  const fileUrl = pathToFileURL(resolve(file)).href;
  const thread = new ReplicaSyncThread({
    fileUrl,
    syncUrl,
    authToken: options.authToken,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
  });
  const replica = new ReplicaSync(thread, () => openReplicaReader(resolve(file), BUSY_TIMEOUT_MS));
  const primary = openRemoteClient(syncUrl, remoteOptions(options));
  const onPrimary = drizzleLibsql({ client: primary, schema });
  const db = drizzleLibsql({ client: outsideTransactions(primary, { replica }), schema });
  // A transaction's statements are not followed one by one: after it, the copy is behind for every table.
  registerTransactionRunner(db, remoteTransactionRunner(onPrimary, () => replica.afterWrite()).transaction);
  // A batch goes through the client above, which tells which tables its statements may have changed.
  registerBatchRunner(db, remoteTransactionRunner(db).batch);
  return {
    db: db as unknown as TDb,
    driver: 'libsql',
    file,
    remote: false,
    replica,
    migrate: (migrationsFolder = defaultMigrationsFolder) =>
      whileBusy(
        async () => {
          await migrateLibsql(onPrimary, { migrationsFolder });
          await replica.sync();
        },
        () => primary.reconnect(),
      ),
    backup: async (destination) => {
      mkdirSync(dirname(resolve(destination)), { recursive: true });
      await (await replica.readable()).backup(destination);
    },
    integrityCheck: async () => integrityCheckOf(await replica.readable()),
    close: () => {
      // The replica's thread ends on its own once a sync under way has finished (the server awaits it).
      void replica.close();
      if (!primary.closed) primary.close();
    },
  };
}

/** Writes a copy of the file a libSQL client reads to `destination`. */
async function vacuumInto(client: Client, file: string, destination: string): Promise<void> {
  if (file === ':memory:') throw new Error('backup writes a copy of a file: this database is in memory');
  mkdirSync(dirname(resolve(destination)), { recursive: true });
  // VACUUM INTO refuses an existing file; the CLI already asked for --force before overwriting.
  rmSync(destination, { force: true });
  await client.execute({ sql: 'VACUUM INTO ?', args: [resolve(destination)] });
}

function remoteOptions({ authToken, timeoutMs = 10_000, maxTransactions = REMOTE_TRANSACTIONS }: TOpenOptions) {
  return { authToken, timeoutMs, maxTransactions };
}

/** A libSQL server over the network: every statement and transaction on it, none waiting behind another here. */
function openLibsqlServer(url: string, options: TOpenOptions): TDatabase {
  const authToken = options.authToken ?? new URL(url).searchParams.get('authToken') ?? undefined;
  const client = openRemoteClient(url, remoteOptions({ ...options, authToken }));
  const base = drizzleLibsql({ client, schema });
  const db = drizzleLibsql({ client: outsideTransactions(client, {}), schema });
  const runner = remoteTransactionRunner(base);
  registerTransactionRunner(db, runner.transaction);
  registerBatchRunner(db, runner.batch);
  return {
    db: db as unknown as TDb,
    driver: 'libsql',
    file: url.replace(/\?.*$/, ''),
    remote: true,
    migrate: async (migrationsFolder = defaultMigrationsFolder) => migrateLibsql(base, { migrationsFolder }),
    backup: async () => {
      throw new Error(
        'backup writes a local file: a libSQL server is backed up by the server itself (Turso point-in-time restore, sqld snapshots)',
      );
    },
    integrityCheck: () => integrityCheckOf(client),
    close: () => {
      if (!client.closed) client.close();
    },
  };
}

async function integrityCheckOf(client: Pick<Client, 'execute'>): Promise<string> {
  const result = await client.execute('PRAGMA integrity_check');
  return integrityText(result.rows as unknown as { integrity_check: string }[]);
}

/** Liveness probe used by /api/health. */
export async function pingDatabase(db: TDb): Promise<boolean> {
  const row = await db.get<{ ok: number }>(sql`select 1 as ok`);
  return row?.ok === 1;
}
