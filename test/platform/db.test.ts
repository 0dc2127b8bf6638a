import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabase, type TDatabaseDriver } from '../../db/client';
import { users } from '../../db/schema';
import { transaction, TransactionMisuseError } from '../../db/transaction';
import { ConfigError, loadConfig } from '../../server/config';

/** CI runs the whole suite once per driver: DATABASE_DRIVER=libsql selects @libsql/client. */
const DRIVER = (process.env.DATABASE_DRIVER || undefined) as TDatabaseDriver | undefined;

const Store = suite<{ dir: string; database: TDatabase }>(
  `SQLite store (${DRIVER ?? 'better-sqlite3'}), migrations and the transaction helper`,
);

Store.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-db-'));
  context.database = openDatabase(`file:${join(context.dir, 'store.db')}`, { driver: DRIVER });
  await context.database.migrate();
});
Store.after((context) => {
  context.database.close();
  rmSync(context.dir, { recursive: true, force: true });
});

const row = (id: string) => ({
  id,
  username: id,
  usernameKey: id,
  email: `${id}@example.test`,
  passwordHash: 'x',
  createdAt: new Date(),
  updatedAt: new Date(),
});

async function countUsers(database: TDatabase): Promise<number> {
  return (await database.db.get<{ n: number }>(sql`select count(*) as n from users`))!.n;
}

Store('WAL mode, foreign keys and a busy timeout are on', async ({ database }) => {
  assert.is((await database.db.get<{ journal_mode: string }>(sql`pragma journal_mode`))!.journal_mode, 'wal');
  assert.is((await database.db.get<{ foreign_keys: number }>(sql`pragma foreign_keys`))!.foreign_keys, 1);
  assert.is((await database.db.get<{ timeout: number }>(sql`pragma busy_timeout`))!.timeout, 5000);
});

Store('migrations are recorded and re-running them is a no-op', async ({ database }) => {
  const applied = (await database.db.get<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`))!.n;
  assert.ok(applied >= 1);
  await database.migrate();
  assert.is((await database.db.get<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`))!.n, applied);
});

Store('a transaction commits all of its work', async ({ database }) => {
  const before = await countUsers(database);
  const result = await transaction(database.db, async (tx) => {
    await tx.insert(users).values(row('tx_ok_1'));
    await tx.insert(users).values(row('tx_ok_2'));
    return 'done';
  });
  assert.is(result, 'done');
  assert.is(await countUsers(database), before + 2);
});

Store('a failure half-way leaves nothing written', async ({ database }) => {
  const before = await countUsers(database);
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('tx_half_1'));
      await tx.insert(users).values(row('tx_half_1')); // primary key clash
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    // libSQL's error arrives wrapped by drizzle ("Failed query: ...") with the constraint in its cause.
    assert.match(`${error} ${(error as Error).cause ?? ''}`, /UNIQUE|constraint/i);
  }
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('tx_half_2'));
      throw new Error('service decided to abort');
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.match(String(error), /abort/);
  }
  assert.is(await countUsers(database), before);
});

Store('awaiting anything but the database inside a transaction is refused and rolled back', async ({ database }) => {
  const before = await countUsers(database);
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('tx_io'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, TransactionMisuseError);
  }
  assert.is(await countUsers(database), before);
});

Store('nested transactions are refused', async ({ database }) => {
  try {
    await transaction(database.db, async (tx) => transaction(tx, async () => 1));
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, TransactionMisuseError);
  }
});

Store(
  "interleaved calls: no statement lands in, sees, or is rolled back with another call's transaction",
  async ({ database }) => {
    const before = await countUsers(database);
    let seenDuringTransaction = -1;
    // Started in one tick, as the calls of a tRPC batch are: their awaits interleave.
    const [failed, outside, reader] = await Promise.allSettled([
      transaction(database.db, async (tx) => {
        await tx.insert(users).values(row('iso_tx_1'));
        await tx.insert(users).values(row('iso_tx_2'));
        await tx.insert(users).values(row('iso_tx_3'));
        throw new Error('abort after three inserts');
      }),
      (async () => {
        await database.db.insert(users).values(row('iso_outside'));
        return 'written';
      })(),
      (async () => {
        seenDuringTransaction = await countUsers(database);
      })(),
    ]);
    assert.is(failed.status, 'rejected');
    assert.is(outside.status, 'fulfilled');
    assert.is(reader.status, 'fulfilled');
    // The reader ran after the rollback (it never saw iso_tx_*), and the outside write survived it.
    assert.ok(
      seenDuringTransaction === before || seenDuringTransaction === before + 1,
      `reader saw ${seenDuringTransaction}`,
    );
    assert.is(await countUsers(database), before + 1);
    assert.ok(await database.db.select().from(users).where(sql`${users.id} = 'iso_outside'`).get());
  },
);

Store('transactions started in one tick run one after another, all committed', async ({ database }) => {
  const before = await countUsers(database);
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      transaction(database.db, async (tx) => {
        await tx.insert(users).values(row(`seq_${i}_a`));
        await tx.insert(users).values(row(`seq_${i}_b`));
        return i;
      }),
    ),
  );
  assert.equal(
    results,
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.is(await countUsers(database), before + 40);
});

Store('a transaction that uses the outer db is rolled back with a clear error, not a hang', async ({ database }) => {
  const before = await countUsers(database);
  try {
    await transaction(database.db, async (tx) => {
      await tx.insert(users).values(row('outer_misuse_tx'));
      await database.db.select().from(users).limit(1); // waits for this very transaction
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, TransactionMisuseError);
  }
  assert.is(await countUsers(database), before);
  // The connection is free again.
  await transaction(database.db, async (tx) => tx.insert(users).values(row('after_misuse')));
  assert.is(await countUsers(database), before + 1);
});

Store(
  'stress: 300 interleaved transactions and single writes, failures half-way, every acknowledged write present',
  async ({ database }) => {
    const before = await countUsers(database);
    const acknowledged: string[] = [];
    const calls = Array.from({ length: 300 }, async (_, i) => {
      if (i % 3 === 0) {
        await database.db.insert(users).values(row(`stress_single_${i}`));
        acknowledged.push(`stress_single_${i}`);
        return;
      }
      const ids = [`stress_tx_${i}_a`, `stress_tx_${i}_b`];
      await transaction(database.db, async (tx) => {
        await tx.insert(users).values(row(ids[0]!));
        if (i % 3 === 2) throw new Error('planned failure');
        await tx.insert(users).values(row(ids[1]!));
      }).then(
        () => acknowledged.push(...ids),
        () => undefined,
      );
    });
    await Promise.all(calls);
    assert.is(acknowledged.length, 100 + 100 * 2);
    assert.is(await countUsers(database), before + acknowledged.length);
    const rows = await database.db.all<{ id: string }>(sql`select id from users where id like 'stress_%'`);
    assert.equal(rows.map((r) => r.id).sort(), [...acknowledged].sort());
  },
);

Store('online backup produces a consistent copy', async ({ dir, database }) => {
  const copy = join(dir, 'backup', 'copy.db');
  await database.backup(copy);
  const restored = openDatabase(`file:${copy}`, { driver: DRIVER });
  try {
    assert.is(await restored.integrityCheck(), 'ok');
    assert.is(await countUsers(restored), await countUsers(database));
  } finally {
    restored.close();
  }
});

Store.run();

const Config = suite('configuration from the environment');

Config('defaults apply when nothing is set', () => {
  const config = loadConfig({});
  assert.is(config.PORT, 3000);
  assert.is(config.HOST, '127.0.0.1');
  assert.is(config.DATABASE_URL, 'file:./data/tidewatch.db');
  assert.is(config.SEED_DEMO, true);
  assert.is(config.SIGNUP_CAPTCHA, 'optional');
});

Config('values are parsed: SEED_DEMO=false is false', () => {
  const config = loadConfig({ PORT: '8080', SEED_DEMO: 'false', SIGNUP_CAPTCHA: 'required' });
  assert.is(config.PORT, 8080);
  assert.is(config.SEED_DEMO, false);
  assert.is(config.SIGNUP_CAPTCHA, 'required');
});

Config('a bad value throws naming the variable and the value', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SEED_DEMO', 'maybe'],
    ['SIGNUP_CAPTCHA', 'sometimes'],
    ['DATABASE_URL', 'postgres://x'],
    ['CAPTCHA_HMAC_KEY', 'short'],
  ]) {
    try {
      loadConfig({ [name!]: value });
      assert.unreachable(`${name}=${value} accepted`);
    } catch (error) {
      assert.instance(error, ConfigError);
      assert.match((error as Error).message, new RegExp(`${name}:`));
    }
  }
});

Config.run();
