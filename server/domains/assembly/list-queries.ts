// The SQL of list pages: which assemblies are listable, the sorts and the indexes they walk, the page
// of ids without a keyword, and the full rows of a page.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { assemblies, assemblyListableCounts, catalogHulls } from '../../../db/schema';
import { rowsOf, selectRows, type TRow } from './queries';
import type { TListOrder, TListSort } from './schemas';

/**
 * The assemblies a list shows at all: public and not in the trash (the FTS5 index holds only these).
 * Literal SQL with the constant 1 (not a bound parameter), so that SQLite can prove the partial
 * indexes of db/schema/assembly.ts (WHERE deleted_at IS NULL AND is_public = 1) apply.
 */
export function listable(): SQL {
  return sql`${assemblies.deletedAt} is null and ${assemblies.isPublic} = 1`;
}

/** Listable assemblies among the ids of the `ids` placeholder, a JSON array: one statement for any number of ids. */
export function listableAmong(): SQL {
  return and(sql`${assemblies.id} in (select value from json_each(${sql.placeholder('ids')}))`, listable())!;
}

/** The hulls of a class (`shipType`: a size or an archetype, any case): a handful of ids from the catalog. */
export function hullsOf(db: TDb) {
  return prepared(db, 'assembly.list.hulls', (d) => {
    const shipType = sql.placeholder('shipType');
    return d
      .select({ id: catalogHulls.id })
      .from(catalogHulls)
      .where(
        sql`lower(${catalogHulls.size}) = lower(${shipType}) or lower(${catalogHulls.archetype}) = lower(${shipType})`,
      )
      .orderBy(catalogHulls.id)
      .prepare();
  });
}

/** How many assemblies are listable, of every hull or of the hulls of the `hulls` placeholder (JSON): a few rows kept by triggers. */
export function listableCount(db: TDb, byHulls: boolean) {
  return prepared(db, `assembly.list.count:${byHulls}`, (d) =>
    d
      .select({ n: sql<number>`coalesce(sum(${assemblyListableCounts.n}), 0)` })
      .from(assemblyListableCounts)
      .where(
        byHulls
          ? sql`${assemblyListableCounts.shipId} in (select value from json_each(${sql.placeholder('hulls')}))`
          : undefined,
      )
      .prepare(),
  );
}

/**
 * The key columns of each sort, in order, all descending (order=desc) or all ascending (asc); the
 * trailing id breaks ties (newest first, or oldest first). `latest` is by publication: ids are
 * assigned at publish; `updated` by the last edit. Each matches an index of db/schema/assembly.ts
 * walked backwards or forwards (assemblies_listable, _hot, _rating, _updated and their ship_id-led forms).
 */
export const SORT_KEYS = {
  latest: [assemblies.id],
  hottest: [assemblies.hotRank, assemblies.id],
  rating: [assemblies.ratingRank, assemblies.ratingCount, assemblies.id],
  updated: [assemblies.updatedAt, assemblies.id],
} as const;

/**
 * The index each sort walks, without and with a shipType. Named (INDEXED BY) rather than left to the
 * planner: measured on the benchmark's database, SQLite 3.53 preferred assemblies_listable and a sort
 * of every listable row (165 ms for a deep page of 100,000) over walking assemblies_hot (0.4 ms),
 * and INDEXED BY makes a plan that cannot use the index an error rather than a full sort.
 */
const SORT_INDEX = {
  latest: ['assemblies_listable', 'assemblies_ship_latest'],
  hottest: ['assemblies_hot', 'assemblies_ship_hot'],
  rating: ['assemblies_rating', 'assemblies_ship_rating'],
  updated: ['assemblies_updated', 'assemblies_ship_updated'],
} as const;

/** ORDER BY over key columns, unqualified: valid in a single select and in a UNION ALL of them. */
export function orderOf(columns: readonly { name: string }[], order: TListOrder): SQL {
  return sql.raw(columns.map((column) => `${column.name} ${order}`).join(', '));
}

/**
 * The ids of a page of the list without a keyword. Without a shipType: one walk of the sort's index,
 * `offset + limit` entries. With one: a UNION ALL of one walk per hull of the class (each over its
 * ship_id-led index, already in order), which SQLite merges in order (MERGE (UNION ALL)) and stops
 * after `offset + limit` rows: a rare or empty class costs no more than a common one, where a filter
 * on the whole index would walk every row to find a rare hull's. Prepared per sort and hull count
 * (SQLite takes up to 500 arms; the game has 19 hulls, a class a handful).
 */
export function pageIds(db: TDb, sort: TListSort, order: TListOrder, hullCount: number) {
  return prepared(db, `assembly.list.ids:${sort}:${order}:${hullCount}`, (d) =>
    pageIdsQuery(d, sort, order, hullCount).prepare(),
  );
}

/** pageIds' statement, unprepared: test/assembly/list-bounds.test.ts checks its query plan for every sort and hull count. */
export function pageIdsQuery(d: TDb, sort: TListSort, order: TListOrder, hullCount: number) {
  // Unqualified: the FROM is `assemblies INDEXED BY ...`, which drizzle does not know as its table.
  const keys = Object.fromEntries(
    SORT_KEYS[sort].map((column) => [column.name, sql<number>`${sql.identifier(column.name)}`]),
  );
  const arm = (hull: number | null) =>
    d
      .select(keys)
      .from(sql`${assemblies} indexed by ${sql.identifier(SORT_INDEX[sort][hull === null ? 0 : 1])}`)
      .where(hull === null ? listable() : and(eq(assemblies.shipId, sql.placeholder(`hull${hull}`)), listable()));
  const [first, second, ...rest] = hullCount === 0 ? [arm(null)] : Array.from({ length: hullCount }, (_, i) => arm(i));
  const query = second ? unionAll(first!, second, ...rest) : first!;
  return query
    .orderBy(orderOf(SORT_KEYS[sort], order))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

function rowsAmong(db: TDb) {
  return prepared(db, 'assembly.search.rows', (d) => selectRows(d).where(listableAmong()).prepare());
}

/** The full rows of a page's ids, in the ids' order. */
export async function rowsInOrder(db: TDb, ids: number[]): Promise<TRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map(rowsOf(await rowsAmong(db).values({ ids: JSON.stringify(ids) })).map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
