import type { Database } from 'better-sqlite3';
import type { drizzle as drizzleBetterSqlite } from 'drizzle-orm/better-sqlite3';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import { runnerDatabase } from './better-sqlite3-async';
import type { TDb } from './types';
import type { DatabaseGate } from './gate';

/**
 * The transaction rule, for every caller (procedures of a tRPC batch, concurrent requests on both
 * surfaces, background jobs, the CLI):
 *
 * 1. A multi-statement write, and every check-then-write (a limit, a "once only" rule), runs inside
 *    `transaction()`; all of it is committed, or none of it.
 * 2. No statement of one call runs inside another call's transaction, sees its uncommitted writes, or
 *    is rolled back with it. The database's gate (db/gate.ts) gives a transaction the connection
 *    alone: statements outside it, and other transactions, wait until it ends.
 * 3. `work` awaits only its own `tx` (no hashing, network, or the outer `db`). On a local file its
 *    statements resolve at once, so a transaction lasts one turn of the event loop and the others
 *    wait microseconds. Awaiting anything else is a bug: the transaction is rolled back with a
 *    TransactionMisuseError as soon as the turn ends, and its `tx` refuses further statements.
 * 4. `transaction(tx, ...)` inside a transaction is refused (pass the outer `tx` down), unless the
 *    outer one joins them on purpose (joinNestedTransactions: the demo seed, all or nothing).
 *
 * drizzle's own `db.transaction` cannot be used with an async callback on better-sqlite3 (it commits
 * before the awaited work runs; drizzle-orm issues 1472 and 2275); on libSQL it runs underneath.
 */
export function transaction<T>(db: TDb, work: (tx: TDb) => Promise<T>): Promise<T> {
  const runner = runners.get(db);
  if (!runner) throw new Error('transaction(): database was not opened through openDatabase()');
  return runner(work);
}

type TRunner = <T>(work: (tx: TDb) => Promise<T>) => Promise<T>;

const runners = new WeakMap<object, TRunner>();

export function registerTransactionRunner(db: object, runner: TRunner): void {
  runners.set(db, runner);
}

/**
 * Makes `transaction(tx, ...)` inside `tx` run as part of it rather than refuse (the default: a
 * nested transaction is a bug). For a caller that composes whole services into one unit, all or
 * nothing: the demo seed (server/seed/index.ts), whose services open transactions of their own.
 */
export function joinNestedTransactions(tx: TDb): void {
  registerTransactionRunner(tx, (work) => work(tx));
}

export class TransactionMisuseError extends Error {
  override name = 'TransactionMisuseError';
}

const refuseNested: TRunner = async () => {
  throw new TransactionMisuseError('Nested transaction: pass the outer tx down instead');
};

/**
 * Settles with `work`, or rejects once the current turn of the event loop ends with `work` still
 * pending: it awaited something other than its own statements (rule 3), while holding the connection.
 */
function inOneTurn<T>(work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const sentinel = setImmediate(() =>
      reject(
        new TransactionMisuseError(
          'A transaction awaited something other than its own statements (I/O, or the outer db): rolled back',
        ),
      ),
    );
    const settle = (outcome: () => void) => {
      clearImmediate(sentinel);
      outcome();
    };
    try {
      work().then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

/**
 * better-sqlite3: BEGIN IMMEDIATE on the one connection, holding the gate. `tx` is a database of
 * this transaction alone, which refuses statements once it has ended.
 */
export function sqliteTransactionRunner(
  client: Database,
  base: ReturnType<typeof drizzleBetterSqlite>,
  gate: DatabaseGate,
): TRunner {
  return async (work) => {
    await gate.acquire();
    try {
      let open = true;
      const tx = runnerDatabase(client, base, async (run) => {
        if (!open) throw new TransactionMisuseError('This transaction has ended: its tx takes no more statements');
        return run();
      });
      registerTransactionRunner(tx, refuseNested);
      client.exec('BEGIN IMMEDIATE');
      try {
        const result = await inOneTurn(() => work(tx));
        open = false;
        client.exec('COMMIT');
        return result;
      } catch (error) {
        open = false;
        if (client.inTransaction) client.exec('ROLLBACK');
        throw error;
      }
    } finally {
      gate.release();
    }
  };
}

/**
 * libSQL: drizzle's async transaction over the ungated `base` (BEGIN IMMEDIATE on a connection or
 * stream of its own, rolled back when `work` throws), holding the gate. On an embedded replica the
 * client runs it on the primary. On a local file every
 * statement resolves in the same turn, so rule 3 is enforced as on better-sqlite3; over the network
 * each statement is a round trip, the rule cannot be checked by timing, only kept by the code.
 */
export function libsqlTransactionRunner(
  base: LibSQLDatabase<Record<string, unknown>>,
  gate: DatabaseGate,
  options: { sameTurn: boolean; afterCommit?: () => Promise<void> },
): TRunner {
  return async (work) => {
    await gate.acquire();
    const result = await base
      .transaction(async (tx) => {
        registerTransactionRunner(tx, refuseNested);
        return options.sameTurn ? inOneTurn(() => work(tx as unknown as TDb)) : work(tx as unknown as TDb);
      })
      .finally(() => gate.release());
    // An embedded replica: the transaction ran on the primary; bring the copy up to it and tell the
    // other instances (db/replica.ts) before the caller, and so its client, hears of the commit.
    await options.afterCommit?.();
    return result;
  };
}
