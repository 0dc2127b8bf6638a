/**
 * The view counter's flush statement (issue 22): µs per counted assembly, writing the counts into the
 * wide `assemblies` row (how it was until migration 0017) against the narrow `assembly_views` table
 * (viewFlushStatement today), with better-sqlite3 on a copy of a generated database:
 *
 *   npx tsx bench/view-flush.ts <generated database> [rounds=4]
 *
 * Each round first reads the item cell's 5,000 rotating assemblies (bench/workload.ts), as a second of
 * the item benchmark does before its flush, then flushes one view of each in chunks of
 * VIEW_FLUSH_CHUNK. The wide form is the statement of before 0017 (by uuid) on a column added to the
 * copy for the purpose; it fires no hot_rank trigger (dropping that trigger changed the cost of the
 * old statement by less than the noise here).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { VIEW_FLUSH_CHUNK, viewFlushStatement } from '../server/infra/view-counter';
import { migrateBenchDatabase } from './generate';
import { benchPublicAssemblyUuid, readBenchCounts } from './workload';

const [source, roundsArg = '4'] = process.argv.slice(2);
if (!source) throw new Error('usage: npx tsx bench/view-flush.ts <generated database> [rounds]');
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-view-flush-'));
const file = join(dir, 'copy.db');
try {
  const check = new Database(source);
  check.pragma('wal_checkpoint(TRUNCATE)');
  check.close();
  copyFileSync(source, file);
  await migrateBenchDatabase(file);
  const { assemblies: total } = readBenchCounts(file);
  const uuids = Array.from({ length: 5_000 }, (_, i) => benchPublicAssemblyUuid(i, total));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('alter table assemblies add column views_wide integer not null default 0');
  const read = db.prepare('select * from assemblies where uuid = ?');
  const ids = uuids.map((uuid) => (read.get(uuid) as { id: number }).id).sort((a, b) => a - b);
  const wide = db.prepare(
    `update assemblies set views_wide = assemblies.views_wide + counted.delta
     from (select json_extract(value, '$[0]') as uuid, json_extract(value, '$[1]') as delta from json_each(?)) as counted
     where assemblies.uuid = counted.uuid and +assemblies.deleted_at is null returning uuid, views_wide`,
  );
  const narrow = db.prepare(new SQLiteSyncDialect().sqlToQuery(viewFlushStatement('[]')).sql);
  const chunks = <T>(list: T[]) =>
    Array.from({ length: Math.ceil(list.length / VIEW_FLUSH_CHUNK) }, (_, i) =>
      list.slice(i * VIEW_FLUSH_CHUNK, (i + 1) * VIEW_FLUSH_CHUNK),
    );
  const forms: Record<string, () => void> = {
    'wide row (assemblies, by uuid; before 0017)': () => {
      for (const chunk of chunks(uuids)) wide.all(JSON.stringify(chunk.map((uuid) => [uuid, 1])));
    },
    'narrow row (assembly_views, by id; now)': () => {
      for (const chunk of chunks(ids)) narrow.all(JSON.stringify(chunk.map((id) => [id, 1])));
    },
  };
  const results = new Map<string, number[]>();
  const rounds = Number(roundsArg);
  for (let round = 0; round <= rounds; round++) {
    for (const [name, flush] of Object.entries(forms)) {
      for (const uuid of uuids) read.get(uuid);
      const started = process.hrtime.bigint();
      flush();
      const us = Number(process.hrtime.bigint() - started) / 1000 / uuids.length;
      // Round 0 warms up.
      if (round > 0) results.set(name, [...(results.get(name) ?? []), us]);
    }
  }
  db.close();
  console.log(
    `${total} assemblies, ${uuids.length} counted per flush, chunks of ${VIEW_FLUSH_CHUNK}, ${rounds} rounds`,
  );
  for (const [name, runs] of results) {
    const sorted = [...runs].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(46)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} µs per counted assembly (${runs.map((us) => us.toFixed(1)).join(', ')})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
