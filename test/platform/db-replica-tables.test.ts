/**
 * An embedded replica's staleness by table (db/replica.ts, db/replica-tables.ts): a write heard of makes
 * the copy behind for the tables it may have changed, through triggers and foreign keys, and a read
 * goes to the primary only when it reads one of them. Every doubt (a pragma, an unknown table, a
 * transaction, a schema change, a message that may be lost) makes it behind for all. The syncer and the
 * reader are stand-ins here, so that the copy stays behind for exactly as long as each test says.
 */
import type { InStatement, ResultSet } from '@libsql/client';
import * as assert from 'uvu/assert';
import type { TReplicaReader } from '../../db/replica-reader';
import { ReplicaSync } from '../../db/replica';
import { TableMap, type TSchemaRow } from '../../db/replica-tables';
import { suite } from '../support/suite';

const SCHEMA: TSchemaRow[] = [
  { type: 'table', name: 'users', tbl_name: 'users', sql: 'CREATE TABLE users (id integer primary key, name text)' },
  {
    type: 'table',
    name: 'sessions',
    tbl_name: 'sessions',
    sql: 'CREATE TABLE "sessions" (id text, user_id integer REFERENCES "users"(id) ON DELETE CASCADE)',
  },
  { type: 'table', name: 'likes', tbl_name: 'likes', sql: 'CREATE TABLE likes (user_id integer, target text)' },
  {
    type: 'table',
    name: 'like_counts',
    tbl_name: 'like_counts',
    sql: 'CREATE TABLE like_counts (target text, n integer)',
  },
  {
    type: 'table',
    name: 'data_versions',
    tbl_name: 'data_versions',
    sql: 'CREATE TABLE data_versions (name text, version integer)',
  },
  {
    type: 'trigger',
    name: 'likes_count',
    tbl_name: 'likes',
    sql: 'CREATE TRIGGER likes_count AFTER INSERT ON likes BEGIN UPDATE "like_counts" SET n = n + 1 WHERE target = NEW.target; END',
  },
  {
    type: 'view',
    name: 'liked',
    tbl_name: 'liked',
    sql: 'CREATE VIEW liked AS SELECT target FROM like_counts WHERE n > 0',
  },
  { type: 'index', name: 'likes_target', tbl_name: 'likes', sql: 'CREATE INDEX likes_target ON likes (target)' },
];

const Tables = suite('which tables a statement may read or change');

Tables(
  'a write changes its table, what its triggers write and what references it; literals and comments name nothing',
  () => {
    const map = new TableMap(SCHEMA);
    assert.equal(
      new Set(map.changedBy('insert into "likes" ("user_id", "target") values (?, ?)')),
      new Set(['likes', 'like_counts']),
    );
    assert.equal(new Set(map.changedBy('DELETE FROM users WHERE id = ?')), new Set(['users', 'sessions']));
    assert.equal(map.changedBy("update data_versions set version = version + 1 where name = 'users' -- sessions"), [
      'data_versions',
    ]);
    assert.equal(
      map.changedBy('insert into brand_new (x) values (1)'),
      [],
      'a table unknown here: nothing known, so the caller takes all',
    );
  },
);

Tables('a read reads the tables it names, and a view the tables of its definition', () => {
  const map = new TableMap(SCHEMA);
  assert.equal(
    new Set(
      map.readBy(
        'select "sessions"."id", "users"."name" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id"',
      ),
    ),
    new Set(['sessions', 'users']),
  );
  assert.equal(map.readBy('SELECT * FROM liked'), ['like_counts']);
  assert.equal(map.readBy('PRAGMA data_version'), []);
});

/** A reader answering the schema queries from SCHEMA, at `version`. */
function fakeReader(state: { version: number; schema: TSchemaRow[] }): TReplicaReader {
  const result = (rows: unknown[]): ResultSet => ({
    columns: [],
    columnTypes: [],
    rows: rows as never,
    rowsAffected: 0,
    lastInsertRowid: undefined,
    toJSON: () => ({}),
  });
  return {
    execute: async (statement: InStatement) => {
      const sql = typeof statement === 'string' ? statement : statement.sql;
      if (sql === 'PRAGMA schema_version') return result([[state.version]]);
      if (sql.includes('sqlite_master')) return result(state.schema);
      throw new Error(`the stand-in reader answers the schema only: ${sql}`);
    },
    backup: async () => {},
    close: () => {},
    closed: false,
  };
}

/** A syncer whose syncs finish when the test says. */
function heldSyncer() {
  const waiting: (() => void)[] = [];
  return {
    started: () => waiting.length,
    finishAll: () => {
      for (const finish of waiting.splice(0)) finish();
    },
    syncer: {
      sync: () => new Promise<number>((resolve) => waiting.push(() => resolve(1))),
      close: async () => {},
    },
  };
}

const SESSION_READ = 'select "id" from "sessions" where "id" = ?';
const LIKES_READ = 'select count(*) from "likes" where "target" = ?';
const COUNT_READ = 'select "n" from "like_counts" where "target" = ?';
const LIKE_WRITE = 'insert into "likes" ("user_id", "target") values (?, ?)';

async function replicaOf(state: { version: number; schema: TSchemaRow[] }) {
  const held = heldSyncer();
  const published: (readonly string[] | 'all')[] = [];
  const replica = new ReplicaSync(held.syncer, () => fakeReader(state));
  replica.connect({ publish: async (tables) => void published.push(tables), mustSync: () => false });
  await catchUp(replica, held);
  return { replica, held, published };
}

/** Finishes syncs until one that started from now has finished. */
async function catchUp(replica: ReplicaSync, held: ReturnType<typeof heldSyncer>): Promise<void> {
  let done = false;
  const synced = replica.sync().then(() => {
    done = true;
  });
  while (!done) {
    held.finishAll();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await synced;
}

Tables(
  'a like heard of sends reads of likes and their counts to the primary, and session checks stay on the copy',
  async () => {
    const { replica, held, published } = await replicaOf({ version: 1, schema: SCHEMA });
    assert.ok(replica.currentFor(SESSION_READ));
    await replica.afterWrite([LIKE_WRITE]);
    assert.equal(new Set(published[0] as string[]), new Set(['likes', 'like_counts']), 'the other instances are told');
    assert.not.ok(replica.currentFor(LIKES_READ));
    assert.not.ok(replica.currentFor(COUNT_READ), 'the trigger writes the counts');
    assert.not.ok(replica.currentFor('PRAGMA data_version'), 'a read naming no table waits for every write');
    assert.ok(replica.currentFor(SESSION_READ), 'the sessions were not written');
    await catchUp(replica, held);
    assert.ok(replica.currentFor(LIKES_READ), 'caught up');
    replica.stopPeriodicSync();
  },
);

Tables('behind for every table: a transaction, a message naming a table unknown here, or "all"', async () => {
  const { replica, held, published } = await replicaOf({ version: 1, schema: SCHEMA });
  await replica.afterWrite();
  assert.is(published[0], 'all');
  assert.not.ok(replica.currentFor(SESSION_READ));
  await catchUp(replica, held);
  assert.ok(replica.currentFor(SESSION_READ));
  replica.require(['NaN']);
  assert.not.ok(replica.currentFor(SESSION_READ), 'an older instance says NaN');
  await catchUp(replica, held);
  replica.require('all');
  assert.not.ok(replica.currentFor(SESSION_READ));
  await catchUp(replica, held);
  await replica.afterWrite(['CREATE TABLE brand_new (x)']);
  assert.is(published.at(-1), 'all', 'a schema change');
  replica.stopPeriodicSync();
});

Tables('a sync that brings a new schema leaves the copy behind for all until the next one', async () => {
  const state = { version: 1, schema: SCHEMA };
  const { replica, held } = await replicaOf(state);
  state.version = 2;
  await catchUp(replica, held);
  assert.not.ok(replica.currentFor(SESSION_READ), 'the writes heard meanwhile were weighed against the old schema');
  await catchUp(replica, held);
  assert.ok(replica.currentFor(SESSION_READ));
  replica.stopPeriodicSync();
});

Tables.run();
