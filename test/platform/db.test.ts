import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { migrationsUpTo } from '../support/migrations';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabase, type TDatabaseDriver } from '../../db/client';
import { assemblies, users } from '../../db/schema';
import { transaction, TransactionMisuseError } from '../../db/transaction';
import { ConfigError, loadConfig } from '../../server/config';

/** Columns added to assemblies after migration 0011 (0014: the web client's extras). */
const ASSEMBLY_COLUMNS_AFTER_0011 = new Set(['client']);

/**
 * Inserts assembly rows into a database migrated only to 0011: drizzle's insert names every column of
 * today's schema, so the rows go in through SQL naming the columns 0011 has.
 */
async function insertAtSchemaOf0011(db: TDatabase['db'], rows: (typeof assemblies.$inferInsert)[]): Promise<void> {
  const columns = Object.entries(getTableColumns(assemblies)).filter(
    ([, column]) => !ASSEMBLY_COLUMNS_AFTER_0011.has(column.name),
  );
  for (const row of rows) {
    const present = columns.filter(([key]) => (row as Record<string, unknown>)[key] !== undefined);
    const values: SQL[] = present.map(([key, column]) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null ? sql`null` : sql`${column.mapToDriverValue(value)}`;
    });
    await db.run(
      sql`insert into assemblies (${sql.raw(present.map(([, column]) => `"${column.name}"`).join(', '))}) values (${sql.join(values, sql`, `)})`,
    );
  }
}

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

const Fts = suite<{ dir: string }>(
  `migrations 0006 and 0010 (${DRIVER ?? 'better-sqlite3'}): the FTS5 index keeps only listable assemblies, with prefix indexes`,
);

Fts.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-fts-'));
});
Fts.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

/** An assembly row with one tag and an empty loadout, public or not, trashed at `deletedAt` or not. */
function taggedAssembly(
  creatorId: string,
  tag: string,
  name: string,
  isPublic: boolean,
  deletedAt: Date | null,
  now: Date,
) {
  return {
    uuid: randomUUID(),
    creatorId,
    name,
    shipId: 'hulk',
    weapons: '[]',
    furnitures: '[]',
    tags: JSON.stringify([tag]),
    isPublic,
    createdAt: now,
    updatedAt: now,
    deletedAt,
  };
}

/**
 * Inserts rows into `assemblies` of a database at an older migration: drizzle's insert names every
 * column of today's schema (hot_rank of 0011 too), which such a table does not have yet.
 */
async function insertAtOldSchema(db: TDatabase['db'], rows: ReturnType<typeof taggedAssembly>[]): Promise<void> {
  for (const r of rows) {
    await db.run(sql`insert into assemblies (uuid, creator_id, name, ship_id, weapons, furnitures, tags, is_public, created_at, updated_at, deleted_at)
      values (${r.uuid}, ${r.creatorId}, ${r.name}, ${r.shipId}, ${r.weapons}, ${r.furnitures}, ${r.tags}, ${r.isPublic ? 1 : 0}, ${r.createdAt.getTime()}, ${r.updatedAt.getTime()}, ${r.deletedAt?.getTime() ?? null})`);
  }
}

/** A user row in a database at an older migration (drizzle's insert would name 0016's profile columns). */
async function insertUserAtOldSchema(db: TDatabase['db'], id: string): Promise<void> {
  const now = Date.now();
  await db.run(
    sql`insert into users (id, username, username_key, email, password_hash, created_at, updated_at) values (${id}, ${id}, ${id}, ${`${id}@example.test`}, 'x', ${now}, ${now})`,
  );
}

/** The rowids the FTS5 index matches for an FTS5 query, in order. */
async function ftsIds(db: TDatabase['db'], match: string): Promise<number[]> {
  return (
    await db.all<{ id: number }>(
      sql`select rowid as id from assemblies_fts where assemblies_fts match ${match} order by rowid`,
    )
  ).map((r) => Number(r.id));
}

Fts(
  'a database at 0005 with public, private and trashed rows has an index of exactly the listable ones after 0006',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'at-0005.db')}`, { driver: DRIVER });
    try {
      await database.migrate(migrationsUpTo(dir, '0005_war_history_cover'));
      const { db } = database;
      await insertUserAtOldSchema(db, 'fts_owner');
      const now = new Date();
      const assembly = (name: string, isPublic: boolean, deletedAt: Date | null) =>
        taggedAssembly('fts_owner', 'reefword', name, isPublic, deletedAt, now);
      await insertAtOldSchema(db, [
        assembly('Public one', true, null),
        assembly('Private one', false, null),
        assembly('Trashed one', true, now),
        assembly('Private trashed one', false, now),
        assembly('Public two', true, null),
      ]);
      const ids = (keyword: string) => ftsIds(db, keyword);
      const count = async (table: string) =>
        Number((await db.get<{ n: number }>(sql.raw(`select count(*) as n from ${table}`)))!.n);
      assert.equal(await ids('reefword'), [1, 2, 3, 4, 5], 'before: 0003 indexed every row');

      await database.migrate();
      assert.equal(await ids('reefword'), [1, 5], 'after: only public, untrashed rows');
      assert.equal(await ids('private OR trashed'), []);
      assert.is(await count('assemblies_fts_docsize'), 2, 'nothing else left in the index');
      assert.is(
        (await db.get<{ n: number }>(sql`select count(*) as n from sqlite_master where name = 'assemblies_listing'`))!
          .n,
        0,
      );
      assert.is(
        (await db.get<{ n: number }>(sql`select count(*) as n from sqlite_master where name = 'assemblies_listable'`))!
          .n,
        1,
      );
      assert.is(await database.integrityCheck(), 'ok');

      // The new triggers carry on from there.
      await db.run(sql`update assemblies set is_public = 1 where id = 2`);
      await db.run(sql`update assemblies set deleted_at = null where id = 3`);
      await db.run(sql`update assemblies set is_public = 0 where id = 5`);
      assert.equal(await ids('reefword'), [1, 2, 3]);
      await db.run(sql`delete from assemblies where id in (1, 4)`);
      assert.equal(await ids('reefword'), [2, 3]);
      assert.is(await count('assemblies_fts_docsize'), 2);
    } finally {
      database.close();
    }
  },
);

Fts(
  '0010 rebuilds the index with prefix indexes: the same listable rows, prefixes of 1 to 10 characters, the triggers still feed it',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'at-0009.db')}`, { driver: DRIVER });
    try {
      await database.migrate(migrationsUpTo(dir, '0009_data_versions_war'));
      const { db } = database;
      await insertUserAtOldSchema(db, 'prefix_owner');
      const now = new Date();
      const assembly = (name: string, isPublic: boolean, deletedAt: Date | null) =>
        taggedAssembly('prefix_owner', 'tidecaller', name, isPublic, deletedAt, now);
      await insertAtOldSchema(db, [
        assembly('Public one', true, null),
        assembly('Private one', false, null),
        assembly('Trashed one', true, now),
      ]);
      const ids = (match: string) => ftsIds(db, match);
      const tableSql = async () =>
        (await db.get<{ sql: string }>(sql`select sql from sqlite_master where name = 'assemblies_fts'`))!.sql;
      assert.not.match(await tableSql(), /prefix=/);

      await database.migrate();
      assert.match(await tableSql(), /prefix='1 2 3 4 5 6 7 8 9 10'/);
      assert.equal(await ids('"tidecaller"'), [1], 'only the listable row, as before');
      assert.equal(await ids('"t"*'), [1]);
      assert.equal(await ids('"tidecall"*'), [1]);
      assert.equal(await ids('"tidecaller"*'), [1], 'a prefix longer than the indexed ones still matches');
      assert.equal(await ids('"pub"* "on"*'), [1]);
      await db.run(sql`update assemblies set is_public = 1 where id = 2`);
      assert.equal(await ids('"tide"*'), [1, 2], 'the 0006 triggers feed the new table');
      assert.is(await database.integrityCheck(), 'ok');
    } finally {
      database.close();
    }
  },
);

Fts.run();

const ListBounds = suite<{ dir: string }>(
  `migrations 0011 to 0013 (${DRIVER ?? 'better-sqlite3'}): sort keys, their indexes, the listable counts, the hull in FTS5`,
);

ListBounds.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-list-bounds-'));
});
ListBounds.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

ListBounds(
  'a database at 0010 gets exact keys and counts, and the triggers keep them through every write',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'at-0010.db')}`, { driver: DRIVER });
    try {
      await database.migrate(migrationsUpTo(dir, '0010_assemblies_fts_prefix'));
      const { db } = database;
      await db.run(
        sql`insert into users (id, username, username_key, email, password_hash, role, created_at, updated_at) values ('lb_owner', 'lb_owner', 'lb_owner', 'lb@example.test', 'x', 'user', 0, 0)`,
      );
      const insert = (
        name: string,
        shipId: string,
        isPublic: number,
        deletedAt: number | null,
        likes: number,
        views: number,
        ratingSum: number,
        ratingCount: number,
        createdAt: number,
      ) =>
        db.run(sql`insert into assemblies (uuid, creator_id, name, ship_id, weapons, furnitures, tags, is_public, likes, views, rating_sum, rating_count, created_at, updated_at, deleted_at)
        values (${randomUUID()}, 'lb_owner', ${name}, ${shipId}, '[]', '[]', '[]', ${isPublic}, ${likes}, ${views}, ${ratingSum}, ${ratingCount}, ${createdAt}, ${createdAt}, ${deletedAt})`);
      const t = 1_790_000_000_000;
      await insert('public hulk', 'hulk', 1, null, 3, 40, 9, 2, t);
      await insert('public dhow', 'dhow', 1, null, 0, 0, 0, 0, t + 1000);
      await insert('private hulk', 'hulk', 0, null, 1, 1, 5, 1, t + 2000);
      await insert('trashed hulk', 'hulk', 1, t, 0, 0, 0, 0, t + 3000);

      await database.migrate();
      const keys = async () =>
        Object.fromEntries(
          (
            await db.all<{ name: string; hot: number; rating: number }>(
              sql`select name, hot_rank as hot, rating_rank as rating from assemblies`,
            )
          ).map((row) => [row.name, [Number(row.hot), Number(row.rating)]]),
        );
      // 0013 rounds the interaction term to 0.01.
      const hot = (likes: number, views: number, createdAt: number) =>
        Math.round(Math.log10(2 * likes + views / 10 + 1) * 100) / 100 + createdAt / (12 * 3600 * 1000);
      const near = (actual: number[] | undefined, expected: number[], label: string) =>
        assert.ok(
          actual?.every((value, i) => Math.abs(value - expected[i]!) < 1e-9),
          `${label}: ${actual} against ${expected}`,
        );
      const filled = await keys();
      near(filled['public hulk'], [hot(3, 40, t), (9 + 15) / (2 + 5)], 'filled by the migration');
      // 0017 moves views to assembly_views, one row per assembly.
      const storedViews = async () =>
        Object.fromEntries(
          (
            await db.all<{ name: string; views: number }>(
              sql`select a.name, v.views from assemblies a join assembly_views v on v.assembly_id = a.id`,
            )
          ).map((row) => [row.name, Number(row.views)]),
        );
      assert.equal(
        await storedViews(),
        { 'public hulk': 40, 'public dhow': 0, 'private hulk': 1, 'trashed hulk': 0 },
        'the views moved with the migration',
      );
      near(filled['public dhow'], [hot(0, 0, t + 1000), 3], 'unrated: 3');
      near(filled['private hulk'], [hot(1, 1, t + 2000), 20 / 6], 'every row has its keys, listable or not');
      const counts = async () =>
        Object.fromEntries(
          (
            await db.all<{ ship_id: string; n: number }>(
              sql`select ship_id, n from assembly_listable_counts where n > 0 order by ship_id`,
            )
          ).map((row) => [row.ship_id, Number(row.n)]),
        );
      assert.equal(await counts(), { dhow: 1, hulk: 1 }, 'only listable rows are counted');

      // Writes after the migration: a like, a view flush, a rating, an insert, publish state, trash, a change of hull, a delete.
      await db.run(sql`update assemblies set likes = 10 where name = 'public dhow'`);
      await db.run(
        sql`update assembly_views set views = views + 25 where assembly_id = (select id from assemblies where name = 'public hulk')`,
      );
      await db.run(sql`update assemblies set rating_sum = 14, rating_count = 3 where name = 'public hulk'`);
      await db.run(sql`insert into assemblies (uuid, creator_id, name, ship_id, weapons, furnitures, tags, is_public, likes, rating_sum, rating_count, created_at, updated_at)
      values (${randomUUID()}, 'lb_owner', 'new brigantine', 'brigantine', '[]', '[]', '[]', 1, 2, 0, 0, ${t + 4000}, ${t + 4000})`);
      const written = await keys();
      near(written['public dhow'], [hot(10, 0, t + 1000), 3], 'a like');
      near(written['public hulk'], [hot(3, 65, t), (14 + 15) / (3 + 5)], 'views and a rating');
      near(written['new brigantine'], [hot(2, 0, t + 4000), 3], 'an insert');
      assert.equal(await counts(), { brigantine: 1, dhow: 1, hulk: 1 });
      await db.run(sql`update assemblies set is_public = 1 where name = 'private hulk'`);
      await db.run(sql`update assemblies set deleted_at = null where name = 'trashed hulk'`);
      assert.equal(await counts(), { brigantine: 1, dhow: 1, hulk: 3 }, 'made public, restored');
      await db.run(sql`update assemblies set ship_id = 'dhow' where name = 'public hulk'`);
      await db.run(sql`update assemblies set deleted_at = ${t} where name = 'new brigantine'`);
      assert.equal(await counts(), { dhow: 2, hulk: 2 }, 'moved to another hull, trashed');
      await db.run(sql`update assemblies set name = 'renamed', likes = likes where name = 'private hulk'`);
      await db.run(sql`delete from assemblies where name in ('trashed hulk', 'new brigantine')`);
      assert.equal(await counts(), { dhow: 2, hulk: 1 }, 'a listable and a trashed row deleted');
      assert.equal(
        Object.keys(await storedViews()).sort(),
        ['private hulk', 'public dhow', 'public hulk']
          .map((name) => (name === 'private hulk' ? 'renamed' : name))
          .sort(),
        'an insert makes its views row, a delete drops it',
      );
      near(
        (await keys())['public hulk'],
        [hot(3, 65, t), (14 + 15) / (3 + 5)],
        'a like of the renamed one leaves the others alone',
      );
      const listable = await db.all<{ ship_id: string; n: number }>(
        sql`select ship_id, count(*) as n from assemblies where deleted_at is null and is_public = 1 group by ship_id order by ship_id`,
      );
      assert.equal(
        await counts(),
        Object.fromEntries(listable.map((row) => [row.ship_id, Number(row.n)])),
        'the counts are the listable rows',
      );
      for (const name of [
        'assemblies_hot',
        'assemblies_rating',
        'assemblies_ship_latest',
        'assemblies_ship_hot',
        'assemblies_ship_rating',
      ]) {
        const index = await db.get<{ sql: string }>(
          sql`select sql from sqlite_master where type = 'index' and name = ${name}`,
        );
        assert.match(index?.sql ?? '', /WHERE deleted_at IS NULL AND is_public = 1$/, name);
      }
      assert.is(await database.integrityCheck(), 'ok');
    } finally {
      database.close();
    }
  },
);

ListBounds(
  '0012 adds the hull to the FTS5 index: the same listable rows, a change of hull re-indexes, words stay in name and tags',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'at-0011.db')}`, { driver: DRIVER });
    try {
      await database.migrate(migrationsUpTo(dir, '0011_list_bounds'));
      const { db } = database;
      await insertUserAtOldSchema(db, 'hull_owner');
      const now = new Date();
      const assembly = (name: string, isPublic: boolean, deletedAt: Date | null) =>
        taggedAssembly('hull_owner', 'hullword', name, isPublic, deletedAt, now);
      // hulk, as taggedAssembly makes them; 0011's schema has hot_rank already.
      await insertAtSchemaOf0011(db, [
        assembly('Public one', true, null),
        assembly('Private one', false, null),
        assembly('Trashed one', true, now),
      ]);
      await database.migrate();
      const hull = (id: string) => `hull_token : "h${Buffer.from(id, 'utf8').toString('hex')}"`;
      assert.equal(await ftsIds(db, '"hullword"'), [1], 'only the listable row, as before');
      assert.equal(await ftsIds(db, `{name tags} : ("hullword"*) AND ${hull('hulk')}`), [1]);
      assert.equal(await ftsIds(db, `{name tags} : ("h"*)`), [1], 'the words of name and tags');
      assert.equal(await ftsIds(db, `{name tags} : ("h6"*)`), [], 'not the hull term');
      await db.run(sql`update assemblies set ship_id = 'sloop_2' where id = 1`);
      assert.equal(await ftsIds(db, hull('hulk')), [], 'a change of hull re-indexes the row');
      assert.equal(await ftsIds(db, hull('sloop_2')), [1]);
      assert.equal(await ftsIds(db, hull('sloop')), [], 'one exact term per hull id, punctuation included');
      await db.run(sql`update assemblies set is_public = 1 where id = 2`);
      await db.run(sql`delete from assemblies where id = 1`);
      assert.equal(
        await ftsIds(db, `{name tags} : ("hullword") AND ${hull('hulk')}`),
        [2],
        'the 0012 triggers feed and empty it',
      );
      assert.is(Number((await db.get<{ n: number }>(sql`select count(*) as n from assemblies_fts_docsize`))!.n), 1);
      assert.is(await database.integrityCheck(), 'ok');
    } finally {
      database.close();
    }
  },
);

ListBounds.run();

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
