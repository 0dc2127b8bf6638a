import type { Client, InArgs, InStatement, ResultSet } from '@libsql/client';
import type { DatabaseGate } from './gate';
import type { ReplicaSync } from './replica';

export interface TOutsideOptions {
  /** A local file: every statement passes the gate (db/gate.ts). */
  gate?: DatabaseGate;
  /** An embedded replica: its copy answers reads while current; the client wrapped, its primary, takes everything else. */
  replica?: ReplicaSync;
}

const sqlOf = (statement: InStatement): string => (typeof statement === 'string' ? statement : statement.sql);

/** Whether a statement only reads, so that a replica's copy may answer it. */
function onlyReads(statement: InStatement): boolean {
  return /^\s*(select|explain|pragma)\b/i.test(sqlOf(statement));
}

const changedRows = (result: ResultSet) => result.rowsAffected > 0;

/**
 * The libSQL client as drizzle sees it outside transactions (its own `transaction` refused: they go
 * through db/transaction.ts).
 *
 * On an embedded replica `client` is the primary: a statement that only reads runs on the copy while
 * the copy holds every write heard of to the tables it reads, else on the primary (db/replica.ts); any
 * other statement goes to the primary, and one that changed rows tells this instance and the others
 * which tables it may have changed. So does a batch (transactionBatch() on a replica comes here).
 */
export function outsideTransactions(client: Client, { gate, replica }: TOutsideOptions): Client {
  const run = gate ? <T>(work: () => Promise<T>) => gate.statement(work) : <T>(work: () => Promise<T>) => work();
  const onPrimary = async <T>(
    work: (primary: Client) => Promise<T>,
    wrote: (result: T) => boolean,
    statements?: readonly InStatement[],
  ) => {
    if (!replica) return run(() => work(client));
    const result = await work(client);
    if (wrote(result)) await replica.afterWrite(statements?.map(sqlOf));
    return result;
  };
  const execute = (statement: InStatement): Promise<ResultSet> => {
    if (!replica) return run(() => client.execute(statement));
    if (!onlyReads(statement)) return onPrimary((primary) => primary.execute(statement), changedRows, [statement]);
    return (replica.currentFor(sqlOf(statement)) ? replica.reader : client).execute(statement);
  };
  return {
    execute: ((statement: InStatement | string, args?: InArgs) =>
      execute(typeof statement === 'string' ? { sql: statement, args: args ?? [] } : statement)) as Client['execute'],
    batch: (statements, mode) =>
      onPrimary(
        (target) => target.batch(statements, mode),
        (results) => results.some(changedRows),
        statements.map((statement) => (Array.isArray(statement) ? statement[0] : (statement as InStatement))),
      ),
    migrate: (statements) =>
      onPrimary(
        (target) => target.migrate(statements),
        () => true,
      ),
    executeMultiple: (text) =>
      onPrimary(
        (target) => target.executeMultiple(text),
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
