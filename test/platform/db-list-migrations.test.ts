// Migrations 0011 to 0013 on databases migrated part of the way (test/support/migrations.ts): sort keys, counts, the hull in FTS5.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsUpTo } from '../support/migrations';
import { ftsIds, insertAtSchemaOf0011, insertUserAtOldSchema, taggedAssembly } from '../support/old-schema-rows';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabaseDriver } from '../../db/client';

/** CI runs the whole suite once per driver: DATABASE_DRIVER=libsql selects @libsql/client. */
const DRIVER = (process.env.DATABASE_DRIVER || undefined) as TDatabaseDriver | undefined;

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
