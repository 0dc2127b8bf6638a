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
 * `work` may only await database calls (no hashing, no network): on better-sqlite3 those resolve
 * in the same turn of the event loop, so nothing from another request can run inside the
 * transaction. drizzle's own `db.transaction` cannot be used with an async callback on
 * better-sqlite3 (it commits before the awaited work runs; drizzle-orm issues 1472 and 2275).
 */
export function transaction<T>(db: TDb, work: (tx: TDb) => Promise<T>): Promise<T> {
  const runner = runners.get(db);
  if (!runner) throw new Error('transaction(): database was not opened through openDatabase()');
  return runner(db, work);
}

export class TransactionMisuseError extends Error {
  override name = 'TransactionMisuseError';
}

export function sqliteTransactionRunner(client: Database): TRunner {
  return async (db, work) => {
    if (client.inTransaction) {
      throw new TransactionMisuseError('Nested transaction: pass the outer tx down instead');
    }
    client.exec('BEGIN IMMEDIATE');
    let leftTheTurn = false;
    const sentinel = setImmediate(() => {
      leftTheTurn = true;
    });
    try {
      const result = await work(db);
      if (leftTheTurn) {
        throw new TransactionMisuseError('A transaction awaited something other than the database');
      }
      client.exec('COMMIT');
      return result;
    } catch (error) {
      if (client.inTransaction) client.exec('ROLLBACK');
      throw error;
    } finally {
      clearImmediate(sentinel);
    }
  };
}
