/**
 * The digest of the whole database that proves a refused write of the hostile-input suites
 * (hostile-input*.test.ts) left it exactly as it was.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { perDatabase } from '../../db/prepared';
import type { TDb } from '../../db/types';
import type { TTestServer } from '../support/helpers';

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One prepared query that reads the whole database: per table, every row as its quoted values, the
 * rows sorted (so a row's place, such as a rowid given anew, does not count). Built once per database
 * (perDatabase): the schema does not change during the suite. The fingerprint is taken after every
 * write request, and preparing a statement per table each time was most of the suite's time.
 */
async function digestQueryOf(db: TDb) {
  const tables = await db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const columns = await db.all<{ name: string }>(sql.raw(`select name from pragma_table_info(${literal(name)})`));
    const row = columns.map((column) => `quote(${quoted(column.name)})`).join(` || ',' || `);
    parts.push(
      `${literal(name)}, (select group_concat(row, char(10)) from (select ${row} as row from ${quoted(name)} order by row))`,
    );
  }
  return db
    .select({ tables: sql<string>`json_array(${sql.raw(parts.join(',\n'))})` })
    .from(sql`(select 1)`)
    .prepare();
}

/** A digest of every row of every table: equal digests mean an unchanged database. */
export async function fingerprint(app: TTestServer): Promise<string> {
  const query = await perDatabase(app.database.db, 'hostile-input:digest', digestQueryOf);
  const [row] = await query.all();
  return createHash('sha1').update(row!.tables).digest('hex');
}
