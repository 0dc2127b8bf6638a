import type { Database } from 'better-sqlite3';
import type { TDb } from './client';

type TRunner = <T>(db: TDb, work: (tx: TDb) => Promise<T>) => Promise<T>;

const runners = new WeakMap<object, TRunner>();

export function registerTransactionRunner(db: object, runner: TRunner): void {
  runners.set(db, runner);
}

/**
 * The one way to make a multi-statement write: all of `work` is committed, or none of it.
 *
 * `work` may only await database calls (no hashing, no network): on better-sqlite3 (and libSQL on
 * a local file) those resolve in the same turn of the event loop, so nothing from another request
 * can run inside the transaction and no write lock is held across I/O. drizzle's own
 * `db.transaction` cannot be used with an async callback on better-sqlite3 (it commits before the
 * awaited work runs; drizzle-orm issues 1472 and 2275); on libSQL it is what runs underneath.
 */
export function transaction<T>(db: TDb, work: (tx: TDb) => Promise<T>): Promise<T> {
  const runner = runners.get(db);
  if (!runner) throw new Error('transaction(): database was not opened through openDatabase()');
  return runner(db, work);
}

export class TransactionMisuseError extends Error {
  override name = 'TransactionMisuseError';
}

/** Runs `work` and throws if it left the current turn of the event loop (awaited non-database I/O). */
async function inOneTurn<T>(work: () => Promise<T>): Promise<T> {
  let leftTheTurn = false;
  const sentinel = setImmediate(() => {
    leftTheTurn = true;
  });
  try {
    const result = await work();
    if (leftTheTurn) {
      throw new TransactionMisuseError('A transaction awaited something other than the database');
    }
    return result;
  } finally {
    clearImmediate(sentinel);
  }
}

export function sqliteTransactionRunner(client: Database): TRunner {
  return async (db, work) => {
    if (client.inTransaction) {
      throw new TransactionMisuseError('Nested transaction: pass the outer tx down instead');
    }
    client.exec('BEGIN IMMEDIATE');
    try {
      const result = await inOneTurn(() => work(db));
      client.exec('COMMIT');
      return result;
    } catch (error) {
      if (client.inTransaction) client.exec('ROLLBACK');
      throw error;
    }
  };
}

const refuseNested: TRunner = async () => {
  throw new TransactionMisuseError('Nested transaction: pass the outer tx down instead');
};

/**
 * libSQL: drizzle's async transaction (BEGIN IMMEDIATE on a connection of its own, rolled back when
 * `work` throws). On a local file every call resolves in the same turn, so the same-turn rule is
 * enforced as on better-sqlite3; over the network each call is a round trip and the rule cannot be
 * checked by timing, only kept by the code.
 */
export function libsqlTransactionRunner(options: { sameTurn: boolean }): TRunner {
  return async (db, work) => {
    const asyncDb = db as unknown as {
      transaction<T>(run: (tx: object) => Promise<T>): Promise<T>;
    };
    // The check runs inside drizzle's callback: a misuse throws before COMMIT, so it rolls back.
    return asyncDb.transaction(async (tx) => {
      registerTransactionRunner(tx, refuseNested);
      return options.sameTurn ? inOneTurn(() => work(tx as TDb)) : work(tx as TDb);
    });
  };
}
