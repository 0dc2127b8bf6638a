/**
 * The replica's reader (db/replica-reader.ts): better-sqlite3 answering as @libsql/client does, so that
 * drizzle reads the copy as it reads the primary. Compared with @libsql/client's own local connection
 * on the same file: the same columns, the same rows by index and by name, the same bound values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type ResultSet } from '@libsql/client';
import Database from 'better-sqlite3';
import * as assert from 'uvu/assert';
import { openReplicaReader } from '../../db/replica-reader';
import { suite } from '../support/suite';

const Reader = suite<{ dir: string; file: string }>("the replica's reader answers as @libsql/client does");

Reader.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-reader-'));
  context.file = join(context.dir, 'copy.db');
  const writer = new Database(context.file);
  writer.pragma('journal_mode = WAL');
  writer.exec(`create table t (id integer primary key, name text, flag integer, at integer, bytes blob, score real);
    insert into t values (1, 'one', 1, 1700000000000, x'0102', 1.5), (2, null, 0, 1700000000001, null, null);`);
  writer.close();
});
Reader.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

/** A result as plain data: columns, and each row by index and by name. */
function shape(result: ResultSet) {
  const bytes = (value: unknown) => (value instanceof ArrayBuffer ? Buffer.from(value) : value);
  return {
    columns: result.columns,
    rows: result.rows.map((row) => ({
      byIndex: Array.prototype.slice.call(row).map(bytes),
      byName: Object.fromEntries(Object.keys(row).map((key) => [key, bytes(row[key])])),
    })),
  };
}

Reader(
  'rows, columns and bound values match, blobs as bytes (a Buffer here, an ArrayBuffer there)',
  async ({ file }) => {
    const reader = openReplicaReader(file, 1000);
    const libsql = createClient({ url: `file:${file}` });
    try {
      const statements = [
        { sql: 'select * from t order by id', args: [] },
        {
          sql: 'select id, name as "first", id as "first" from t where flag = ? and at < ?',
          args: [true, new Date(1700000000001)],
        },
        { sql: 'select count(*) as n from t where name is ?', args: [null] },
        { sql: 'select id from t where id > ?', args: [10] },
      ];
      for (const statement of statements)
        assert.equal(shape(await reader.execute(statement)), shape(await libsql.execute(statement)), statement.sql);
    } finally {
      reader.close();
      libsql.close();
    }
  },
);

Reader('it only reads: a write is refused, and nothing changes', async ({ file }) => {
  const reader = openReplicaReader(file, 1000);
  try {
    let refused: unknown;
    await reader.execute({ sql: 'delete from t', args: [] }).catch((error: unknown) => (refused = error));
    assert.match(String(refused), /only reads/);
    assert.is((await reader.execute('select count(*) as n from t')).rows[0]!.n, 2);
  } finally {
    reader.close();
  }
  assert.ok(reader.closed);
});

Reader.run();
