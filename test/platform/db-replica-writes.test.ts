/**
 * An embedded replica (issue 37): every write goes to the primary over its WebSocket, so a write
 * outside transactions never waits for the primary's lock held by a transaction of its own process
 * (@libsql/client's replica would send it synchronously, holding the event loop that transaction needs
 * to send its COMMIT); a read right after a write sees it, on the copy or through the primary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabase } from '../../db/client';
import { users } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { userIds, userRow as row, within } from '../support/db-rows';
import { startSqld, type TSqld } from '../support/sqld';
import { suite } from '../support/suite';

interface TContextShape {
  dir: string;
  sqld: TSqld;
  database: TDatabase;
}

const Replica = suite<TContextShape & { primary: TDatabase }>(
  'an embedded replica: writes go to the primary, reads to the copy while it is current',
);

Replica.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-replica-'));
  context.sqld = await startSqld(join(context.dir, 'sqld'));
  context.primary = openDatabase(context.sqld.url, { driver: 'libsql' });
  await context.primary.migrate();
  context.database = openDatabase(`file:${join(context.dir, 'replica.db')}`, { syncUrl: context.sqld.url });
  await context.database.migrate();
});

Replica.after(async (context) => {
  await context.database?.replica?.close();
  context.database?.close();
  context.primary?.close();
  await context.sqld?.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

Replica(
  "a write outside transactions, while a transaction of this process holds the primary's lock, waits only for it",
  async ({ database }) => {
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const started = Date.now();
    // Two calls at once, as two requests are: the transaction holds the primary's write lock between
    // its statements, and the other call's write needs that lock.
    await within(
      Promise.all([
        transaction(database.db, async (tx) => {
          await tx.insert(users).values(row('replica_tx_1'));
          inserted();
          await tx.insert(users).values(row('replica_tx_2'));
          await tx.insert(users).values(row('replica_tx_3'));
        }),
        insertedOnce.then(() => database.db.insert(users).values(row('replica_single'))),
      ]),
      3_000,
      'a transaction and a write at once',
    );
    assert.ok(Date.now() - started < 3_000);
    assert.equal(await userIds(database, 'replica_'), [
      'replica_single',
      'replica_tx_1',
      'replica_tx_2',
      'replica_tx_3',
    ]);
  },
);

Replica('a read right after a write sees it, on this copy or through the primary', async ({ database }) => {
  for (let i = 0; i < 20; i++) {
    const id = `replica_read_${String(i).padStart(2, '0')}`;
    if (i % 2 === 0) await database.db.insert(users).values(row(id));
    else await transaction(database.db, async (tx) => tx.insert(users).values(row(id)));
    assert.ok((await userIds(database, id)).includes(id), `${id} read back at once`);
  }
});

Replica('once synced, reads come from the local file: they still answer with the primary stopped', async (context) => {
  const { database } = context;
  await database.db.insert(users).values(row('replica_offline'));
  await database.replica!.sync();
  assert.ok(database.replica!.current, 'the copy holds every write it heard of');
  await context.sqld.stop();
  // The copy's reader is a plain connection to the file the sync thread keeps: no round trip to make.
  assert.ok((await userIds(database, 'replica_offline')).includes('replica_offline'));
  const failed = await database.replica!.sync().then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(failed instanceof Error, "a sync fails in the replica's thread and says so here");
  assert.ok((await userIds(database, 'replica_offline')).includes('replica_offline'), 'and reads still answer');
});

Replica.run();
