/**
 * transactionBatch (db/transaction.ts, issue 37): statements that need no answer from each other, as
 * one transaction, each one's result answered, all or nothing; one request on a libSQL server, in
 * order inside `transaction()` on a local file; refused inside a transaction like a nested one. On a
 * real sqld on every pass, and on the pass's file driver.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabase, type TDatabaseDriver } from '../../db/client';
import { users } from '../../db/schema';
import { transaction, transactionBatch } from '../../db/transaction';
import { userIds, userRow as row } from '../support/db-rows';
import { startSqld, type TSqld } from '../support/sqld';
import { suite } from '../support/suite';

/** The same checks on any database: what transactionBatch answers, and that a failure leaves nothing. */
async function batchAllOrNothing(database: TDatabase, prefix: string): Promise<void> {
  const [inserted, counted] = await transactionBatch(database.db, (tx) => [
    tx
      .insert(users)
      .values(row(`${prefix}_1`))
      .returning({ id: users.id }),
    tx.all<{ n: number }>(sql`select count(*) as n from users where id like ${`${prefix}_%`}`),
  ]);
  assert.equal(inserted, [{ id: `${prefix}_1` }]);
  assert.is(Number((counted as { n: number }[])[0]!.n), 1, 'a later statement sees the earlier one');
  try {
    await transactionBatch(database.db, (tx) => [
      tx.insert(users).values(row(`${prefix}_2`)),
      tx.insert(users).values(row(`${prefix}_1`)), // primary key clash
    ]);
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(`${error} ${(error as Error).cause ?? ''}`, /UNIQUE|constraint/i);
  }
  assert.equal(await userIds(database, `${prefix}_`), [`${prefix}_1`]);
}

const OnServer = suite<{ dir: string; sqld: TSqld; database: TDatabase }>('transactionBatch on a libSQL server (sqld)');

OnServer.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-batch-remote-'));
  context.sqld = await startSqld(join(context.dir, 'sqld'));
  context.database = openDatabase(context.sqld.url, { driver: 'libsql' });
  await context.database.migrate();
});

OnServer.after(async (context) => {
  context.database?.close();
  await context.sqld?.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

OnServer('one transaction, each statement answered, all or nothing', async ({ database }) => {
  await batchAllOrNothing(database, 'remote_batch');
});

OnServer.run();

/** CI runs the suite once per file driver: DATABASE_DRIVER=libsql selects @libsql/client. */
const DRIVER = (process.env.DATABASE_DRIVER || undefined) as TDatabaseDriver | undefined;

const Local = suite<{ dir: string; database: TDatabase }>(
  `transactionBatch on a local file (${DRIVER ?? 'better-sqlite3'})`,
);

Local.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-batch-'));
  context.database = openDatabase(`file:${join(context.dir, 'store.db')}`, { driver: DRIVER });
  await context.database.migrate();
});

Local.after((context) => {
  context.database?.close();
  rmSync(context.dir, { recursive: true, force: true });
});

Local('one transaction, each statement answered, all or nothing', async ({ database }) => {
  await batchAllOrNothing(database, 'local_batch');
});

Local('inside a transaction it is refused, like a nested transaction', async ({ database }) => {
  try {
    await transaction(database.db, async (tx) => transactionBatch(tx, (inner) => [inner.select().from(users)]));
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(String(error), /Nested transaction/);
  }
});

Local.run();
