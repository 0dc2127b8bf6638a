import {
  type InArgs,
  type InStatement,
  LibsqlBatchError,
  type LibsqlError,
  type ResultSet,
  type TransactionMode,
} from '@libsql/client';
import * as hrana from '@libsql/hrana-client';
import { type TStreamLease, toLibsqlError } from './hrana';

/** Requests of db/remote.ts in Hrana's terms: statements, results, batches, and SQLITE_BUSY on BEGIN. */

export type TStatement = InStatement | [string, InArgs?];

/** Waits before each new attempt after SQLITE_BUSY, in ms: about 0.2 s in all. */
const BUSY_WAITS_MS = [1, 2, 5, 10, 20, 50, 50, 50];

export function isBusy(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'SQLITE_BUSY';
}

/** BEGIN was refused as busy: nothing of the request ran. */
export class BeginBusy extends Error {}

export async function againWhileBusy<T>(attempt: () => Promise<T>, refusedBeforeRunning: (error: unknown) => boolean) {
  for (const wait of BUSY_WAITS_MS) {
    try {
      return await attempt();
    } catch (error) {
      if (!refusedBeforeRunning(error)) throw error instanceof BeginBusy ? error.cause : error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return attempt().catch((error: unknown) => {
    throw error instanceof BeginBusy ? error.cause : error;
  });
}

export function toHrana(statement: TStatement): hrana.InStmt {
  if (typeof statement === 'string') return statement;
  if (Array.isArray(statement)) return [statement[0], (statement[1] ?? []) as hrana.InStmtArgs];
  return statement.args === undefined ? statement.sql : [statement.sql, statement.args as hrana.InStmtArgs];
}

export function resultSet(result: hrana.RowsResult): ResultSet {
  const columns = result.columnNames.map((name) => name ?? '');
  const columnTypes = result.columnDecltypes.map((type) => type ?? '');
  const { rows, affectedRowCount: rowsAffected, lastInsertRowid } = result;
  return {
    columns,
    columnTypes,
    rows: rows as unknown as ResultSet['rows'],
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({
      columns,
      columnTypes,
      rows: rows.map((row) => Array.from(row, (value) => (typeof value === 'bigint' ? `${value}` : value))),
      rowsAffected,
      lastInsertRowid: lastInsertRowid === undefined ? null : `${lastInsertRowid}`,
    }),
  };
}

export function beginOf(mode: TransactionMode): string {
  if (mode === 'read') return 'BEGIN TRANSACTION READONLY';
  return mode === 'deferred' ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE';
}

/** Marks a step's answer as handled: its error is read later, or not needed. */
function settled(pending: Promise<unknown>): void {
  pending.catch(() => undefined);
}

interface TSteps {
  /** Opens the transaction the statements run in. */
  begin?: string;
  /** The statements run only inside a transaction (opened before, or by `begin`). */
  inTransaction: boolean;
  /** COMMIT after the statements, and ROLLBACK if any of them (or the COMMIT) failed. */
  commit: boolean;
  /** Migrations: foreign keys off around the batch (a table rebuild must not cascade). */
  foreignKeysOff?: boolean;
}

/** One request: the statements with what `steps` puts around them; each statement runs only if the one before it succeeded. */
export async function sendSteps(lease: TStreamLease, statements: TStatement[], steps: TSteps): Promise<ResultSet[]> {
  const guarded = (await lease.version) >= 3;
  const batch = lease.stream.batch(false);
  const inTransaction = (step: hrana.BatchStep) =>
    guarded ? step.condition(hrana.BatchCond.not(hrana.BatchCond.isAutocommit(batch))) : step;
  if (steps.foreignKeysOff) settled(batch.step().run('PRAGMA foreign_keys=off'));
  let last: hrana.BatchStep | undefined;
  let begun: Promise<unknown> | undefined;
  if (steps.begin) {
    last = batch.step();
    begun = last.run(steps.begin);
    settled(begun);
  }
  const results = statements.map((statement) => {
    const step = batch.step();
    if (last) step.condition(hrana.BatchCond.ok(last));
    if (steps.inTransaction) inTransaction(step);
    last = step;
    return step.query(toHrana(statement));
  });
  let committed: Promise<unknown> | undefined;
  if (steps.commit && last) {
    const commit = inTransaction(batch.step().condition(hrana.BatchCond.ok(last)));
    committed = commit.run('COMMIT');
    settled(committed);
    settled(
      batch
        .step()
        .condition(hrana.BatchCond.not(hrana.BatchCond.ok(commit)))
        .run('ROLLBACK'),
    );
  }
  if (steps.foreignKeysOff) settled(batch.step().run('PRAGMA foreign_keys=on'));
  // Read below, in order; until then a rejection must not count as unhandled.
  for (const pending of results) settled(pending);
  await lease.deadline(batch.execute());
  if (begun !== undefined)
    await begun.catch((error: unknown) => {
      const mapped = toLibsqlError(error);
      throw isBusy(mapped) ? new BeginBusy('BEGIN was refused as busy', { cause: mapped }) : mapped;
    });
  const sets: ResultSet[] = [];
  for (const [index, pending] of results.entries()) {
    const rows = await pending.catch((error: unknown) => {
      const { code } = toLibsqlError(error) as LibsqlError;
      throw new LibsqlBatchError((error as Error).message, index, code, undefined, undefined, error as Error);
    });
    if (rows === undefined)
      throw new LibsqlBatchError('The transaction had ended: statement not run', index, 'TRANSACTION_CLOSED');
    sets.push(resultSet(rows));
  }
  await committed?.catch((error: unknown) => {
    throw toLibsqlError(error);
  });
  return sets;
}
