/**
 * Decoding the rows of a search page (issue 22): the same prepared statement (the page's full rows,
 * server/domains/assembly/list-queries.ts) read through drizzle's `.all()`, which walks every field of
 * every row generically, against `.values()` decoded by `rowsOf` (server/domains/assembly/queries.ts),
 * and the driver's values alone (the floor: SQLite and better-sqlite3's arrays):
 *
 *   npx tsx bench/row-mapping.ts <generated database> [rounds=5]
 *
 * Over 300 pages of 20 of the search cell's keywords (bench/workload.ts), in process.
 */
import { openDatabase } from '../db/client';
import { listableAmong } from '../server/domains/assembly/list-queries';
import { rowsOf, selectRows } from '../server/domains/assembly/queries';
import { candidateIds, ftsQuery, searchMatch } from '../server/domains/assembly/search';
import { migrateBenchDatabase } from './generate';
import { benchSearchInput } from './workload';

const [file, roundsArg = '5'] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/row-mapping.ts <generated database> [rounds]');
await migrateBenchDatabase(file);
const database = openDatabase(`file:${file}`);
const { db } = database;
const pages: string[] = [];
for (let i = 0; pages.length < 300; i++) {
  const input = benchSearchInput(i * 7);
  const ids = await candidateIds(db, 'desc', searchMatch(ftsQuery(input.keyword)!, null), 1001);
  const offset = (input.page - 1) * input.pageSize;
  const page = ids.slice(offset, offset + input.pageSize);
  if (page.length === input.pageSize) pages.push(JSON.stringify(page));
}
const statement = selectRows(db).where(listableAmong()).prepare();
const forms: Record<string, (ids: string) => Promise<unknown>> = {
  "driver's values only": async (ids) => statement.values({ ids }),
  'rowsOf(values) (now)': async (ids) => rowsOf(await statement.values({ ids })),
  "drizzle's .all() (before)": async (ids) => statement.all({ ids }),
};
const results = new Map<string, number[]>();
const rounds = Number(roundsArg);
for (let round = 0; round <= rounds; round++) {
  for (const [name, read] of Object.entries(forms)) {
    const started = process.hrtime.bigint();
    for (const ids of pages) await read(ids);
    const us = Number(process.hrtime.bigint() - started) / 1000 / pages.length;
    // Round 0 warms up.
    if (round > 0) results.set(name, [...(results.get(name) ?? []), us]);
  }
}
database.close();
console.log(`${pages.length} pages of 20 rows, median of ${rounds} rounds, node ${process.version}`);
for (const [name, runs] of results) {
  const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  console.log(`  ${name.padEnd(28)} ${median.toFixed(0)} µs per page (${(median / 20).toFixed(1)} µs per row)`);
}
