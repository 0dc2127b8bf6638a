/**
 * The transaction rule on a libSQL server (issue 37), on every test pass: a real sqld, reached as the
 * server reaches it (db/remote.ts, Hrana streams over a WebSocket). Transactions overlap with no gate
 * in the instance, in the order they started, never more than the pool: a statement outside a
 * transaction runs while it is open and never sees its writes, a failed one leaves nothing, and
 * interleaved calls stay apart, as on a local file (test/platform/db.test.ts). SQLITE_BUSY on BEGIN is
 * sent again; a server's deadline or a closed socket is a 503.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibsqlBatchError, LibsqlError } from '@libsql/client';
import * as hrana from '@libsql/hrana-client';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabase } from '../../db/client';
import { toLibsqlError } from '../../db/hrana';
import { againWhileBusy, BeginBusy } from '../../db/hrana-batch';
import { users } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { userIds, userRow as row, within } from '../support/db-rows';
import { startSqld, type TSqld } from '../support/sqld';
import { suite } from '../support/suite';

interface TContextShape {
  dir: string;
  sqld: TSqld;
  database: TDatabase;
}

async function countUsers(database: TDatabase): Promise<number> {
  return (await database.db.all<{ n: number }>(sql`select count(*) as n from users`))[0]!.n;
}

const Remote = suite<TContextShape>('the transaction rule on a libSQL server (sqld over a WebSocket)');

Remote.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-remote-'));
  context.sqld = await startSqld(join(context.dir, 'sqld'));
  context.database = openDatabase(context.sqld.url, { driver: 'libsql' });
  await context.database.migrate();
});

Remote.after(async (context) => {
  context.database?.close();
  await context.sqld?.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

Remote('a transaction commits all of its work; a failure half-way leaves nothing', async ({ database }) => {
  const before = await countUsers(database);
  assert.is(
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('remote_ok_1'));
      await tx.insert(users).values(row('remote_ok_2'));
      return 'done';
    }),
    'done',
  );
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('remote_half_1'));
      await tx.insert(users).values(row('remote_half_1')); // primary key clash
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(`${error} ${(error as Error).cause ?? ''}`, /UNIQUE|constraint/i);
  }
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('remote_half_2'));
      throw new Error('service decided to abort');
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(String(error), /abort/);
  }
  assert.is(await countUsers(database), before + 2);
  assert.equal(await userIds(database, 'remote_half'), []);
});

Remote(
  "interleaved calls: no statement lands in, sees, or is rolled back with another call's transaction",
  async ({ database }) => {
    const before = await countUsers(database);
    let seenDuringTransaction = -1;
    const [failed, outside, reader] = await Promise.allSettled([
      transaction(database.db, async (tx) => {
        await tx.insert(users).values(row('remote_iso_1'));
        await tx.insert(users).values(row('remote_iso_2'));
        await tx.insert(users).values(row('remote_iso_3'));
        throw new Error('abort after three inserts');
      }),
      database.db.insert(users).values(row('remote_iso_outside')),
      (async () => {
        seenDuringTransaction = await countUsers(database);
      })(),
    ]);
    assert.is(failed.status, 'rejected');
    assert.is(outside.status, 'fulfilled');
    assert.is(reader.status, 'fulfilled');
    assert.ok(
      seenDuringTransaction === before || seenDuringTransaction === before + 1,
      `reader saw ${seenDuringTransaction}`,
    );
    assert.equal(await userIds(database, 'remote_iso'), ['remote_iso_outside']);
  },
);

Remote(
  "transactions overlap: the next one's BEGIN waits at the server, in order, never more than the pool",
  async ({ sqld }) => {
    for (const pool of [1, 2, 4]) {
      const pooled = openDatabase(sqld.url, { driver: 'libsql', maxTransactions: pool });
      try {
        let open = 0;
        let mostOpen = 0;
        const committed: number[] = [];
        await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            transaction(pooled.db, async (tx) => {
              mostOpen = Math.max(mostOpen, ++open);
              await tx.insert(users).values(row(`remote_side_${pool}_${String(i).padStart(2, '0')}_a`));
              await tx.insert(users).values(row(`remote_side_${pool}_${String(i).padStart(2, '0')}_b`));
              open--;
              committed.push(i);
            }),
          ),
        );
        // The server lets one transaction write at a time: the one holding its lock, and the next, whose
        // BEGIN waits there, are open at once; a third waits here for that BEGIN, to keep the order.
        assert.is(mostOpen, Math.min(pool, 2), `pool of ${pool}`);
        assert.equal(
          committed,
          Array.from({ length: 12 }, (_, i) => i),
          'committed in the order started',
        );
        assert.is((await userIds(pooled, `remote_side_${pool}_`)).length, 24);
      } finally {
        pooled.close();
      }
    }
  },
);

Remote(
  'a statement outside runs while a transaction is open, and sees none of its writes until it commits',
  async ({ database }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const open = transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('remote_open_1'));
      inserted();
      // Holds the transaction open (rule 3 forbids this in a service; here it stands for the round
      // trips of a long transaction).
      await held;
      await tx.insert(users).values(row('remote_open_2'));
    });
    try {
      await insertedOnce;
      const seen = await within(userIds(database, 'remote_open_'), 2_000, 'a read while a transaction is open');
      assert.equal(seen, [], 'uncommitted writes are not seen');
    } finally {
      release();
      await open;
    }
    assert.equal(await userIds(database, 'remote_open_'), ['remote_open_1', 'remote_open_2']);
  },
);

Remote('a transaction kept waiting for the pool past the deadline fails as unavailable (a 503)', async ({ sqld }) => {
  const narrow = openDatabase(sqld.url, { driver: 'libsql', maxTransactions: 1, timeoutMs: 300 });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const first = transaction(narrow.db, async (tx) => {
    await tx.insert(users).values(row('remote_wait_1'));
    await held;
  });
  try {
    const started = Date.now();
    try {
      await within(
        transaction(narrow.db, async (tx) => tx.insert(users).values(row('remote_wait_2'))),
        2_000,
        'a transaction waiting for the pool',
      );
      assert.unreachable('the second transaction got a stream');
    } catch (error) {
      assert.ok(isDatabaseUnavailable(error), `unavailable: ${error}`);
      assert.ok(Date.now() - started < 2_000, `failed after ${Date.now() - started} ms`);
    }
    release();
    await first;
    assert.equal(await userIds(narrow, 'remote_wait_'), ['remote_wait_1']);
  } finally {
    release();
    await first.catch(() => undefined);
    narrow.close();
  }
});

Remote(
  'stress: 300 interleaved transactions and single writes, failures half-way, every acknowledged write present',
  async ({ database }) => {
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        if (i % 3 === 0) {
          await database.db.insert(users).values(row(`remote_stress_single_${i}`));
          acknowledged.push(`remote_stress_single_${i}`);
          return;
        }
        const ids = [`remote_stress_tx_${i}_a`, `remote_stress_tx_${i}_b`];
        await transaction(database.db, async (tx) => {
          await tx.insert(users).values(row(ids[0]!));
          if (i % 3 === 2) throw new Error('planned failure');
          await tx.insert(users).values(row(ids[1]!));
        }).then(
          () => acknowledged.push(...ids),
          () => undefined,
        );
      }),
    );
    assert.is(acknowledged.length, 100 + 100 * 2);
    assert.equal(await userIds(database, 'remote_stress_'), [...acknowledged].sort());
  },
);

Remote.run();

const Busy = suite('SQLITE_BUSY on BEGIN is sent again; what a server failure maps to');

Busy('a BEGIN refused as busy is sent again, a statement that failed is not', async () => {
  const busy = new LibsqlError('database is locked', 'SQLITE_BUSY');
  let attempts = 0;
  const answer = await againWhileBusy(
    async () => {
      attempts++;
      if (attempts < 3) throw new BeginBusy('BEGIN was refused as busy', { cause: busy });
      return 'committed';
    },
    (error) => error instanceof BeginBusy,
  );
  assert.is(answer, 'committed');
  assert.is(attempts, 3);

  attempts = 0;
  const failed = new LibsqlBatchError('database is locked', 0, 'SQLITE_BUSY');
  try {
    await againWhileBusy(
      async () => {
        attempts++;
        throw failed;
      },
      (error) => error instanceof BeginBusy,
    );
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.is(error, failed);
  }
  assert.is(attempts, 1, 'a statement that ran inside the transaction is never run again');
});

Busy('a BEGIN still refused after the waits fails with the server error itself', async () => {
  const busy = new LibsqlError('database is locked', 'SQLITE_BUSY');
  let attempts = 0;
  try {
    await againWhileBusy(
      async () => {
        attempts++;
        throw new BeginBusy('BEGIN was refused as busy', { cause: busy });
      },
      (error) => error instanceof BeginBusy,
    );
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.is(error, busy);
    assert.ok(isDatabaseUnavailable(error), 'a 503');
  }
  assert.ok(attempts > 3);
});

Busy("what a server's deadline or a closed socket fails with is a 503, not a 500", () => {
  // sqld rolled the transaction back to hand its write lock on (it held it past its own deadline).
  assert.ok(isDatabaseUnavailable(new LibsqlError('Transaction timed out', 'TRANSACTION_TIMEOUT')));
  // A request under way when the socket was given up (a deadline passed) or closed.
  const closed = new hrana.ClosedError('Client is closed', new hrana.ClientError('Client was manually closed'));
  assert.ok(isDatabaseUnavailable(toLibsqlError(closed)), String(toLibsqlError(closed)));
});

Busy.run();
