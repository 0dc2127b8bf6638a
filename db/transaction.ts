import type { Database } from 'better-sqlite3';
import type { drizzle as drizzleBetterSqlite } from 'drizzle-orm/better-sqlite3';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import { runnerDatabase } from './better-sqlite3-async';
import type { DatabaseGate } from './gate';
import type { TDb } from './types';

/**
 * The transaction rule, for every caller (procedures of a tRPC batch, concurrent requests on both
 * surfaces, background jobs, the CLI):
 *
 * 1. A multi-statement write, and every check-then-write (a limit, a "once only" rule), runs inside
 *    `transaction()` (or, when no statement needs another's answer, `transactionBatch()`); all of it
 *    is committed, or none of it.
 * 2. No statement of one call runs inside another call's transaction, sees its uncommitted writes, or
 *    is rolled back with it. On a local file the connection is one, and the database's gate
 *    (db/gate.ts) gives a transaction that connection alone: statements outside it, and other
 *    transactions, wait until it ends. On a libSQL server (directly, or behind an embedded replica)
 *    each transaction has a stream of its own, which is a connection of the server's (db/remote.ts),
 *    at most a pool's worth at once; statements outside run on other streams, and the server keeps
 *    transactions apart as SQLite does connections (one writer at a time, readers see only what
 *    is committed).
 * 3. `work` awaits only its own `tx` (no hashing, network, or the outer `db`). On a local file its
 *    statements resolve at once, so a transaction lasts one turn of the event loop and the others
 *    wait microseconds. Awaiting anything else is a bug: the transaction is rolled back with a
 *    TransactionMisuseError as soon as the turn ends, and its `tx` refuses further statements. On a
 *    server each statement is a round trip: the rule cannot be checked by timing there, only kept by
 *    the code (the server holds its write lock for the transaction's whole length).
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

/** Statements built on a `tx` (queries, `tx.all(sql...)`), not awaited yet. */
type TBatchQueries = readonly [unknown, ...unknown[]];
/** What each statement of a batch answers: what awaiting it alone would. */
type TBatchResults<T extends TBatchQueries> = { -readonly [K in keyof T]: Awaited<T[K]> };
type TBatchRunner = <T extends TBatchQueries>(build: (tx: TDb) => T) => Promise<TBatchResults<T>>;

const batchRunners = new WeakMap<object, TBatchRunner>();

export function registerBatchRunner(db: object, runner: TBatchRunner): void {
  batchRunners.set(db, runner);
}

/**
 * Runs the statements `build` makes on its `tx` as one transaction, all or nothing, and answers each
 * one's result (rows for a select or `.returning()`; what a statement without rows answers differs by
 * driver). For writes whose statements need no answer from each other: a check-then-write says its
 * condition in SQL (`INSERT ... SELECT ... WHERE (SELECT count(*) ...) < ?`, `RETURNING`) and the
 * outcome is read from the results. On a libSQL server that is one round trip (one Hrana batch: BEGIN
 * IMMEDIATE, the statements, COMMIT), where `transaction()` pays one per statement and the server's
 * write lock is held across them; on a local file it is `transaction()` running them in order.
 */
export function transactionBatch<T extends TBatchQueries>(db: TDb, build: (tx: TDb) => T): Promise<TBatchResults<T>> {
  const runner = batchRunners.get(db);
  if (runner) return runner(build);
  return transaction(db, async (tx) => {
    const results: unknown[] = [];
    for (const query of build(tx)) results.push(await query);
    return results as TBatchResults<T>;
  });
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
 * libSQL on a local file: drizzle's async transaction over the ungated `base` (BEGIN IMMEDIATE on a
 * connection of its own, rolled back when `work` throws), holding the gate. Every statement resolves
 * in the same turn, so rule 3 is enforced as on better-sqlite3.
 */
export function libsqlTransactionRunner(base: LibSQLDatabase<Record<string, unknown>>, gate: DatabaseGate): TRunner {
  return async (work) => {
    await gate.acquire();
    return base
      .transaction(async (tx) => {
        registerTransactionRunner(tx, refuseNested);
        return inOneTurn(() => work(tx as unknown as TDb));
      })
      .finally(() => gate.release());
  };
}

/**
 * A libSQL server, directly or as the primary of an embedded replica: drizzle's async transaction
 * over `base`, whose client (db/remote.ts) leases the transaction a stream of the server's, a
 * connection of its own, from a bounded pool. No gate: the server keeps the transaction apart from
 * every other statement, so transactions of several calls run at once (the server still lets one
 * of them write at a time). On a replica, `afterCommit` marks the local copy behind the commit and
 * tells the other instances (db/replica.ts) before the caller, and so its client, hears of it.
 */
export function remoteTransactionRunner(
  base: LibSQLDatabase<Record<string, unknown>>,
  afterCommit?: () => Promise<void>,
): { transaction: TRunner; batch: TBatchRunner } {
  return {
    transaction: async (work) => {
      const result = await base.transaction(async (tx) => {
        registerTransactionRunner(tx, refuseNested);
        return work(tx as unknown as TDb);
      });
      await afterCommit?.();
      return result;
    },
    batch: async (build) => {
      const queries = build(base as unknown as TDb);
      const results = (await base.batch(queries as never)) as never;
      await afterCommit?.();
      return results;
    },
  };
}
