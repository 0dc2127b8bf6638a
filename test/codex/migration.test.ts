// Migration 0020 (issue 34) on a database made before it: every comment and like of issue 19's tables
// (an assembly's integer id) is in the generic tables (the assembly's uuid, target type assembly), in
// its order; deleting an assembly still deletes its comments and likes (the trigger), a user's still
// go with the user (the keys), and what the old tables held answers as before.
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { directorySuite } from '../support/directory-suite';
import { openDatabase } from '../../db/client';
import { TEST_DRIVER } from '../support/helpers';
import { migrationsUpTo } from '../support/migrations';

const Migration = directorySuite('migration 0020: comments and likes of any target', '0020');

const UUIDS = ['a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002'];

Migration('copies every row in order, keeps the cascades, and drops the old tables', async ({ dir }) => {
  const database = openDatabase(`file:${join(dir, 'at-0019.db')}`, { driver: TEST_DRIVER });
  try {
    await database.migrate(migrationsUpTo(dir, '0019_name_skeletons'));
    const { db } = database;
    const run = (statement: string) => db.run(sql.raw(statement));
    for (const name of ['ann', 'bob', 'cy'])
      await run(
        `insert into users (id, username, username_key, email, password_hash, created_at, updated_at) values ('${name}', '${name}', '${name}', '${name}@x.test', 'h', 0, 0)`,
      );
    for (const [index, uuid] of UUIDS.entries())
      await run(
        `insert into assemblies (uuid, creator_id, name, ship_id, weapons, furnitures, tags, is_public, created_at, updated_at) values ('${uuid}', 'ann', 'A${index}', 'hulk', '[]', '[]', '[]', 1, 0, 0)`,
      );
    // Same millisecond, inserted c, a, b: the rowid keeps that order.
    for (const [id, assembly, author] of [
      ['c0000000-0000-4000-8000-00000000000c', 1, 'bob'],
      ['c0000000-0000-4000-8000-00000000000a', 1, 'cy'],
      ['c0000000-0000-4000-8000-00000000000b', 2, 'bob'],
    ] as const)
      await run(
        `insert into assembly_comments (id, assembly_id, author_id, content, created_at, updated_at) values ('${id}', ${assembly}, '${author}', 'on ${assembly}', 5, 6)`,
      );
    for (const [assembly, user] of [
      [2, 'cy'],
      [1, 'bob'],
      [1, 'cy'],
    ] as const)
      await run(`insert into assembly_likes (assembly_id, user_id, created_at) values (${assembly}, '${user}', 7)`);

    await database.migrate();
    const rows = (query: string) => db.all<Record<string, unknown>>(sql.raw(query));
    assert.equal(
      await rows(
        'select id, target_type, target_id, author_id, content, created_at, updated_at from comments order by rowid',
      ),
      [
        {
          id: 'c0000000-0000-4000-8000-00000000000c',
          target_type: 'assembly',
          target_id: UUIDS[0],
          author_id: 'bob',
          content: 'on 1',
          created_at: 5,
          updated_at: 6,
        },
        {
          id: 'c0000000-0000-4000-8000-00000000000a',
          target_type: 'assembly',
          target_id: UUIDS[0],
          author_id: 'cy',
          content: 'on 1',
          created_at: 5,
          updated_at: 6,
        },
        {
          id: 'c0000000-0000-4000-8000-00000000000b',
          target_type: 'assembly',
          target_id: UUIDS[1],
          author_id: 'bob',
          content: 'on 2',
          created_at: 5,
          updated_at: 6,
        },
      ],
    );
    assert.equal(await rows('select target_type, target_id, user_id, created_at from likes order by rowid'), [
      { target_type: 'assembly', target_id: UUIDS[1], user_id: 'cy', created_at: 7 },
      { target_type: 'assembly', target_id: UUIDS[0], user_id: 'bob', created_at: 7 },
      { target_type: 'assembly', target_id: UUIDS[0], user_id: 'cy', created_at: 7 },
    ]);
    assert.equal(
      await rows("select name from sqlite_master where name in ('assembly_comments', 'assembly_likes')"),
      [],
      'the old tables are gone',
    );
    // An assembly's deletion takes its comments and likes (the trigger); a user's, theirs (the keys).
    await run(`delete from assemblies where uuid = '${UUIDS[0]}'`);
    assert.equal(await rows('select target_id from comments'), [{ target_id: UUIDS[1] }]);
    assert.equal(await rows('select target_id, user_id from likes'), [{ target_id: UUIDS[1], user_id: 'cy' }]);
    await run("delete from users where id = 'cy'");
    assert.equal(await rows('select count(*) as n from likes'), [{ n: 0 }]);
    await run("delete from users where id = 'bob'");
    assert.equal(await rows('select count(*) as n from comments'), [{ n: 0 }]);
  } finally {
    database.close();
  }
});

Migration.run();
