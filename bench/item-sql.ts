/**
 * The item lookup's SQL alone (issue 22): forms of "one assembly by uuid with its creator and hull",
 * timed with better-sqlite3 directly on a generated database (bench/generate.ts), over the item
 * cell's 5,000 rotating uuids (bench/workload.ts), per page-cache size.
 *
 *   npx tsx bench/item-sql.ts <file> [rounds]
 */
import Database from 'better-sqlite3';
import { benchPublicAssemblyUuid, readBenchCounts } from './workload';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/item-sql.ts <file> [rounds]');
const rounds = Number(process.argv[3] ?? 5);
const { assemblies } = readBenchCounts(file);
const uuids = Array.from({ length: 5_000 }, (_, i) => benchPublicAssemblyUuid(i, assemblies));

const COLUMNS = `a.id, a.uuid, a.name, a.ship_id, a.weapons, a.armor, a.furnitures, a.description, a.tags, a.client, a.is_public,
  a.password_hash, a.creator_id, a.likes, (select v.views from assembly_views v where v.assembly_id = a.id) as views, a.rating_sum, a.rating_count, a.created_at, a.updated_at, a.deleted_at, a.fork_count`;
const hull = (column: string) => `(select h.${column} from catalog_hulls h where h.id = a.ship_id)`;
const FORMS: Record<string, string[]> = {
  'row by uuid alone': [`select ${COLUMNS} from assemblies a where a.uuid = ?`],
  'join users, left join hulls': [
    `select ${COLUMNS}, u.username, u.avatar_url, h.id as hull_id, h.size, h.archetype,
       (select o.uuid from assemblies o where o.id = a.cloned_from_id) as cloning_uuid
     from assemblies a join users u on u.id = a.creator_id left join catalog_hulls h on h.id = a.ship_id where a.uuid = ?`,
  ],
  'scalar subqueries (ours today)': [
    `select ${COLUMNS}, (select u.username from users u where u.id = a.creator_id) as creator_name,
       (select u.avatar_url from users u where u.id = a.creator_id) as creator_avatar,
       ${hull('id')} as hull_id, ${hull('size')} as hull_size, ${hull('archetype')} as hull_archetype,
       (select o.uuid from assemblies o where o.id = a.cloned_from_id) as cloning_uuid
     from assemblies a where a.uuid = ?`,
  ],
};

function time(_db: Database.Database, statements: Database.Statement[]): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (const uuid of uuids) {
    for (const statement of statements) if (statement.get(uuid)) sink++;
  }
  if (sink === 0) throw new Error('no rows');
  return Number(process.hrtime.bigint() - started) / 1000 / uuids.length;
}

for (const cacheKb of [2_000, 65_536]) {
  const db = new Database(file, { readonly: true });
  db.pragma(`cache_size = -${cacheKb}`);
  console.log(`cache_size ${cacheKb} KiB`);
  for (const [name, sqls] of Object.entries(FORMS)) {
    const statements = sqls.map((text) => db.prepare(text));
    const runs = Array.from({ length: rounds }, () => time(db, statements)).sort((x, y) => x - y);
    console.log(
      `  ${name.padEnd(34)} median ${runs[Math.floor(rounds / 2)]!.toFixed(1)} µs, min ${runs[0]!.toFixed(1)} µs`,
    );
  }
  db.close();
}
