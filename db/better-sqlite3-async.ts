import type { Database } from 'better-sqlite3';
import { BetterSQLiteSession } from 'drizzle-orm/better-sqlite3';
import type { drizzle } from 'drizzle-orm/better-sqlite3';
import { BaseSQLiteDatabase, type SQLitePreparedQuery } from 'drizzle-orm/sqlite-core';
import type { TDb } from './types';

/** Runs one statement now or later: the gate's `statement` outside transactions, a liveness check inside one. */
export type TStatementRunner = <T>(run: () => T) => Promise<T>;

type TSyncQuery = SQLitePreparedQuery<never> & {
  run(placeholders?: Record<string, unknown>): unknown;
  all(placeholders?: Record<string, unknown>): unknown;
  get(placeholders?: Record<string, unknown>): unknown;
  values(placeholders?: Record<string, unknown>): unknown;
  joinsNotNullableMap?: Record<string, boolean>;
};

/**
 * One of drizzle's better-sqlite3 prepared queries seen as an asynchronous one: each execution goes
 * through the runner, then runs the synchronous statement as drizzle would. It holds the query
 * instead of extending it, because drizzle's `all()` calls `this.values()` and must get rows back,
 * not a promise.
 */
class RunnerPreparedQuery {
  readonly mode = 'async';

  constructor(
    private readonly query: TSyncQuery,
    private readonly runner: TStatementRunner,
  ) {}

  /** Set by drizzle's select builder after preparing (which joined tables may be null). */
  set joinsNotNullableMap(value: Record<string, boolean> | undefined) {
    this.query.joinsNotNullableMap = value;
  }

  get joinsNotNullableMap(): Record<string, boolean> | undefined {
    return this.query.joinsNotNullableMap;
  }

  run(placeholders?: Record<string, unknown>) {
    return this.runner(() => this.query.run(placeholders));
  }

  all(placeholders?: Record<string, unknown>) {
    return this.runner(() => this.query.all(placeholders));
  }

  get(placeholders?: Record<string, unknown>) {
    return this.runner(() => this.query.get(placeholders));
  }

  values(placeholders?: Record<string, unknown>) {
    return this.runner(() => this.query.values(placeholders));
  }

  execute(placeholders?: Record<string, unknown>) {
    return this[(this.query as unknown as { executeMethod: 'run' | 'all' | 'get' }).executeMethod](placeholders);
  }

  getQuery() {
    return this.query.getQuery();
  }

  isResponseInArrayMode() {
    return (this.query as unknown as { isResponseInArrayMode(): boolean }).isResponseInArrayMode();
  }
}

class RunnerSession extends BetterSQLiteSession<Record<string, unknown>, never> {
  constructor(
    client: Database,
    base: ReturnType<typeof drizzle>,
    private readonly runner: TStatementRunner,
  ) {
    super(client, dialectOf(base), schemaConfigOf(base) as never);
  }

  override prepareQuery(...args: Parameters<BetterSQLiteSession<Record<string, unknown>, never>['prepareQuery']>) {
    return new RunnerPreparedQuery(super.prepareQuery(...args) as unknown as TSyncQuery, this.runner) as never;
  }

  override transaction(): never {
    throw new Error('Use transaction() from db/transaction.ts');
  }
}

/** drizzle keeps the dialect out of its public type; both databases over one connection share it. */
function dialectOf(base: ReturnType<typeof drizzle>): never {
  return (base as unknown as { dialect: never }).dialect;
}

function schemaConfigOf(base: ReturnType<typeof drizzle>) {
  const { schema, fullSchema, tableNamesMap } = base._;
  return schema ? { schema, fullSchema, tableNamesMap } : undefined;
}

/**
 * A drizzle database over a better-sqlite3 connection whose every statement goes through `runner`
 * (an async driver to drizzle, like libSQL), built from `base`, a plain drizzle database over the
 * same connection and schema.
 */
export function runnerDatabase(client: Database, base: ReturnType<typeof drizzle>, runner: TStatementRunner): TDb {
  const session = new RunnerSession(client, base, runner);
  return new BaseSQLiteDatabase(
    'async',
    dialectOf(base),
    session as never,
    schemaConfigOf(base) as never,
  ) as unknown as TDb;
}
