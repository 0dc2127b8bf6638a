// The SQL of the list's date ranges (createdStart/End, updatedStart/End, issue 18): the candidates a
// range walks off its index, and the filter of candidates by the ranges they were not walked by.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { assemblies } from '../../../db/schema';
import { listable, listableAmong, orderOf } from './list-queries';
import type { TDateRange, TListOrder } from './schemas';

export type TRangeField = 'created' | 'updated';

const RANGE_COLUMN = { created: assemblies.createdAt, updated: assemblies.updatedAt } as const;

/** The partial indexes of the listable rows each range walks, without and with a shipType (migration 0015). */
const RANGE_INDEX = {
  created: ['assemblies_created', 'assemblies_ship_created'],
  updated: ['assemblies_updated', 'assemblies_ship_updated'],
} as const;

/** Beyond every timestamp a Date can hold: the bound of an absent side of a range. */
const NO_BOUND = 8.64e15 + 1;

/** A range's bounds as the placeholders' values, epoch ms: `from` inclusive, `until` exclusive. */
export function rangeBounds(range: TDateRange | undefined): { from: number; until: number } {
  return { from: range?.from ?? -NO_BOUND, until: range?.until ?? NO_BOUND };
}

/**
 * The candidates of a range: the ids of the first `cap` listable assemblies in it, in the order of
 * the range's column (then id) in `direction`, walked off its index from one end of the range.
 * With a shipType, a UNION ALL of one walk per hull of the class over the ship_id-led index, merged
 * in order (as pageIds does), so a rare class costs what a common one does. At most `cap` index
 * entries per hull are read, however many rows the range holds. Prepared per field, direction and hull count.
 */
export function rangeIds(db: TDb, field: TRangeField, direction: TListOrder, hullCount: number) {
  return prepared(db, `assembly.list.range:${field}:${direction}:${hullCount}`, (d) =>
    rangeIdsQuery(d, field, direction, hullCount).prepare(),
  );
}

/** rangeIds' statement, unprepared: test/assembly/list-bounds.test.ts checks its query plan. */
export function rangeIdsQuery(d: TDb, field: TRangeField, direction: TListOrder, hullCount: number) {
  const column = RANGE_COLUMN[field];
  // Unqualified: the FROM is `assemblies INDEXED BY ...`, which drizzle does not know as its table.
  const keys = { [column.name]: sql<number>`${sql.identifier(column.name)}`, id: sql<number>`${sql.identifier('id')}` };
  const within = and(sql`${column} >= ${sql.placeholder('from')}`, sql`${column} < ${sql.placeholder('until')}`);
  const arm = (hull: number | null) =>
    d
      .select(keys)
      .from(sql`${assemblies} indexed by ${sql.identifier(RANGE_INDEX[field][hull === null ? 0 : 1])}`)
      .where(
        hull === null
          ? and(listable(), within)
          : and(eq(assemblies.shipId, sql.placeholder(`hull${hull}`)), listable(), within),
      );
  const [first, second, ...rest] = hullCount === 0 ? [arm(null)] : Array.from({ length: hullCount }, (_, i) => arm(i));
  const query = second ? unionAll(first!, second, ...rest) : first!;
  return query.orderBy(orderOf([column, assemblies.id], direction)).limit(sql.placeholder('cap'));
}

/** `column` within the range of placeholders `<prefix>From` and `<prefix>Until`; the `+` keeps SQLite to id lookups (never a walk of a range index). */
function withinRange(field: TRangeField): SQL {
  const column = RANGE_COLUMN[field];
  return and(
    sql`+${column} >= ${sql.placeholder(`${field}From`)}`,
    sql`+${column} < ${sql.placeholder(`${field}Until`)}`,
  )!;
}

/**
 * Which of the candidates in the `ids` placeholder (a JSON array of at most MAX_SEARCH_RESULTS) are
 * in both ranges (createdFrom/Until, updatedFrom/Until; an absent range has the widest bounds):
 * looked up by id, so it costs the candidates' number, not the ranges' size.
 */
export function inRanges(db: TDb) {
  return prepared(db, 'assembly.list.inRanges', (d) => inRangesQuery(d).prepare());
}

/** inRanges' statement, unprepared, for the query-plan test. */
export function inRangesQuery(d: TDb) {
  return d
    .select({ id: assemblies.id })
    .from(assemblies)
    .where(and(listableAmong(), withinRange('created'), withinRange('updated')));
}

/** The placeholders of inRanges for a query's ranges. */
export function rangeParams(created: TDateRange | undefined, updated: TDateRange | undefined) {
  const c = rangeBounds(created);
  const u = rangeBounds(updated);
  return { createdFrom: c.from, createdUntil: c.until, updatedFrom: u.from, updatedUntil: u.until };
}
