/**
 * The peer's database (bench/peer/server.ts): the file opened with the same pragmas as ours, and every
 * prepared statement its routes run, the same SQL as our services.
 */
import Database from 'better-sqlite3';

/** Opens the database file as the peer always has: WAL, synchronous NORMAL, a 5 s busy timeout. */
export function openPeerDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

// The same form as ours (selectRows in server/domains/assembly/queries.ts): the creator's name and the hull through
// correlated scalar subqueries, three times cheaper per row than joins with better-sqlite3 12.
const hull = (column: string) => `(select h.${column} from catalog_hulls h where h.id = a.ship_id)`;
const ASSEMBLY_COLUMNS = `a.id, a.uuid, a.name, a.ship_id, a.weapons, a.armor, a.furnitures, a.description, a.tags, a.is_public,
  a.password_hash, a.creator_id, (select u.username from users u where u.id = a.creator_id) as creator_name, a.likes,
  (select v.views from assembly_views v where v.assembly_id = a.id) as views,
  a.rating_sum, a.rating_count, a.created_at, a.updated_at, a.deleted_at, ${hull('id')} as hull_id, ${hull('size')} as hull_size,
  ${hull('archetype')} as hull_archetype
  from assemblies a`;

const LISTABLE = 'a.deleted_at is null and a.is_public = 1';

/** Every fixed statement of the peer, prepared once at start-up. */
export function prepareStatements(db: Database.Database) {
  return {
    // Ours reads the listable count from the table its triggers keep (migration 0011), not count(*) over every row.
    listCount: db.prepare('select coalesce(sum(n), 0) as n from assembly_listable_counts'),
    listPage: db.prepare(`select ${ASSEMBLY_COLUMNS} where ${LISTABLE} order by a.id desc limit ? offset ?`),
    // The FTS5 index holds only listable assemblies (migration 0006): newest matches first, capped.
    searchCandidates: db.prepare(
      'select rowid as id from assemblies_fts where assemblies_fts match ? order by rowid desc limit ?',
    ),
    searchPage: db.prepare(
      `select ${ASSEMBLY_COLUMNS} where a.id in (select value from json_each(?)) and ${LISTABLE} order by a.id desc`,
    ),
    item: db.prepare(`select ${ASSEMBLY_COLUMNS} where a.uuid = ?`),
    // Views live in their own table (migration 0017): the row of a live assembly by id.
    countView: db.prepare(
      'update assembly_views set views = views + 1 where assembly_id = ? and exists (select 1 from assemblies a where a.id = ? and a.deleted_at is null) returning views',
    ),
    activeCampaigns: db.prepare(
      'select * from drop_campaigns where starts_at <= ? and ends_at > ? order by ends_at asc, id asc',
    ),
    nextStart: db.prepare('select min(starts_at) as at from drop_campaigns where starts_at > ?'),
    currentSeason: db.prepare(
      'select * from seasons where starts_at <= ? order by (ends_at > ?) desc, starts_at desc limit 1',
    ),
    latestSnapshot: db.prepare('select * from war_snapshots where season_id = ? order by captured_at desc limit 1'),
    companies: db.prepare('select * from war_companies'),
    zones: db.prepare('select * from war_zones'),
    snapshotScores: db.prepare('select * from war_company_scores where snapshot_id = ?'),
    snapshotZones: db.prepare('select * from war_zone_control where snapshot_id = ? order by zone_id asc'),
    snapshotHotspots: db.prepare('select * from war_hotspots where snapshot_id = ? order by id asc'),
    lastCapture: db.prepare('select max(captured_at) as at from war_snapshots where season_id = ?'),
    historyBuckets: db.prepare(
      `select cast((captured_at - ?) / ? as integer) as bucket, count(*) as n, max(captured_at) as last_at, id as last_id
     from war_snapshots where season_id = ? and captured_at >= ? and captured_at < ? group by bucket`,
    ),
    historyCompanies: db.prepare(
      `select cast((s.captured_at - ?) / ? as integer) as bucket, c.company_id, avg(c.score) as average, min(c.score) as min, max(c.score) as max
     from war_snapshots s join war_company_scores c on c.snapshot_id = s.id
     where s.season_id = ? and s.captured_at >= ? and s.captured_at < ? group by bucket, c.company_id`,
    ),
    userByName: db.prepare('select * from users where username_key = ?'),
    userByEmail: db.prepare('select * from users where email = ?'),
    insertSession: db.prepare('insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)'),
  };
}

export type TPeerStatements = ReturnType<typeof prepareStatements>;

/** A keyword as an FTS5 query, or null when it holds no word. */
export function ftsQuery(keyword: string): string | null {
  const words = keyword
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 16)
    // As ours: every word as a prefix.
    .map((word) => `"${word.replace(/"/g, '""')}"*`);
  return words.length ? words.join(' ') : null;
}
