// Issue 34: the counts per target and the lists across target types each walk an index, on the
// queries the services run (their builders, their SQL): a target's likes and comments (one range of
// the likes key, of comments_target), user/likes (likes_user) and user/comments (comments_author)
// backwards, each like or comment's target a lookup of a key, and no temporary sort.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase, type TDb } from '../../db/client';
import { countLikes } from '../../server/domains/assembly/likes';
import { countUserLikes, selectUserLikes } from '../../server/domains/assembly/user-lists';
import {
  countMyComments,
  countTargetComments,
  selectMyComments,
  selectTargetComments,
} from '../../server/domains/comment/queries';
import { TEST_DRIVER } from '../support/helpers';
import { suite } from '../support/suite';

const Plans = suite<{ dir: string; db: TDb; close: () => void }>(
  `comment and like query plans (${TEST_DRIVER ?? 'better-sqlite3'}): an index walk each, no sort`,
);

Plans.before(async (context) => {
  // A database of its own, as the other plan tests do (EXPLAIN on the app's libSQL connection upset its writes).
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-codex-plans-'));
  const database = openDatabase(`file:${join(context.dir, 'plans.db')}`, { driver: TEST_DRIVER });
  await database.migrate();
  context.db = database.db;
  context.close = () => database.close();
});
Plans.after(({ dir, close }) => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** EXPLAIN QUERY PLAN of a query builder, its values written in, as one line. */
async function plan(db: TDb, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  let at = 0;
  const inlined = text.replace(/\?/g, () => {
    const value = params[at++];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  return (await db.all<{ detail: string }>(sql.raw(`explain query plan ${inlined}`)))
    .map((row) => row.detail)
    .join(' | ');
}

const USER = '7f9c2ba4-e88f-4e2a-9b61-8d2a7b6c1f00';
const TARGETS = [
  { type: 'assembly', id: '0b7e2f0c-5d7a-4c1e-9a34-6f1d2b8c9e10' },
  { type: 'ship', id: 'dhow' },
  { type: 'npc', id: 'smugglersNetwork' },
] as const;

Plans("a target's likes and comments: one range of an index, whatever the target type", async ({ db }) => {
  for (const target of TARGETS) {
    const likes = await plan(db, countLikes(db, target));
    assert.match(
      likes,
      /SEARCH likes USING COVERING INDEX sqlite_autoindex_likes_1 \(target_type=\? AND target_id=\?\)/,
      likes,
    );
    const count = await plan(db, countTargetComments(db, target));
    assert.match(
      count,
      /SEARCH comments USING COVERING INDEX comments_target \(target_type=\? AND target_id=\?\)/,
      count,
    );
    for (const order of ['desc', 'asc'] as const) {
      const page = await plan(db, selectTargetComments(db, target, order).limit(20).offset(40));
      assert.match(page, /SEARCH comments USING INDEX comments_target \(target_type=\? AND target_id=\?\)/, page);
      assert.not.match(page, /TEMP B-TREE/, page);
    }
  }
});

Plans('user/likes across target types: likes_user backwards, each target a key lookup, no sort', async ({ db }) => {
  const page = await plan(db, selectUserLikes(db, USER).limit(20).offset(0));
  assert.match(page, /SEARCH likes USING INDEX likes_user \(user_id=\?\)/, page);
  assert.match(page, /SEARCH assemblies USING INDEX \w+ \(uuid=\?\)/, page);
  assert.match(
    page,
    /SEARCH codex_entries USING (COVERING )?INDEX sqlite_autoindex_codex_entries_1 \(kind=\? AND id=\?\)/,
    page,
  );
  assert.not.match(page, /TEMP B-TREE|SCAN/, page);
  const count = await plan(db, countUserLikes(db, USER));
  assert.match(count, /SEARCH likes USING (COVERING )?INDEX likes_user \(user_id=\?\)/, count);
  assert.not.match(count, /SCAN/, count);
});

Plans(
  'user/comments across target types: comments_author backwards, each target a key lookup, no sort',
  async ({ db }) => {
    const page = await plan(db, selectMyComments(db, USER).limit(20).offset(0));
    assert.match(page, /SEARCH comments USING INDEX comments_author \(author_id=\?\)/, page);
    assert.match(page, /SEARCH assemblies USING INDEX \w+ \(uuid=\?\)/, page);
    assert.match(
      page,
      /SEARCH codex_entries USING (COVERING )?INDEX sqlite_autoindex_codex_entries_1 \(kind=\? AND id=\?\)/,
      page,
    );
    assert.not.match(page, /TEMP B-TREE|SCAN/, page);
    const count = await plan(db, countMyComments(db, USER));
    assert.match(count, /SEARCH comments USING (COVERING )?INDEX comments_author \(author_id=\?\)/, count);
    assert.not.match(count, /SCAN/, count);
  },
);

Plans.run();
