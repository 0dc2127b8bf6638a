// Migrations 0006 and 0010 on databases migrated part of the way (test/support/migrations.ts): the FTS5 index of listable assemblies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsUpTo } from '../support/migrations';
import { ftsIds, insertAtOldSchema, insertUserAtOldSchema, taggedAssembly } from '../support/old-schema-rows';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase, type TDatabaseDriver } from '../../db/client';

/** CI runs the whole suite once per driver: DATABASE_DRIVER=libsql selects @libsql/client. */
const DRIVER = (process.env.DATABASE_DRIVER || undefined) as TDatabaseDriver | undefined;

const Fts = suite<{ dir: string }>(
  `migrations 0006 and 0010 (${DRIVER ?? 'better-sqlite3'}): the FTS5 index keeps only listable assemblies, with prefix indexes`,
);

Fts.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-fts-'));
});
Fts.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

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
