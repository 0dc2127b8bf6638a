// GET /assembly/list: a page of public assemblies, by keyword, hull class, date ranges, sort and
// order, through the `list` cache scope.
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import type { TAssemblyCaches } from './item';
import type { TDb } from '../../../db/client';
import { hullsOf, listableCount, pageIds, rowsInOrder } from './list-queries';
import { inRanges, rangeBounds, rangeIds, rangeParams, type TRangeField } from './range-queries';
import { toSummary } from './queries';
import type { TAssemblyList, TListQuery } from './schemas';
import { candidateIds, ftsQuery, rankAmong, searchMatch } from './search';
import { MAX_SEARCH_RESULTS } from './schemas';

/** Heap size of a cached list page, measured: 15.4 KB for a page of 20 summaries (its JSON is 9.7 KB). */
const LIST_PAGE_HEAP_BYTES = 512;
const SUMMARY_HEAP_BYTES = 750;

/** A page of the list, from the `list` scope when cached there (every assembly write drops the scope). */
export async function listAssemblies(
  deps: TDepsOf<'db'> & TAssemblyCaches<'list'>,
  query: TListQuery,
): Promise<TAssemblyList> {
  const { db, caches } = deps;
  const key = JSON.stringify([
    query.page,
    query.pageSize,
    query.keyword ?? '',
    query.shipType ?? '',
    query.sort,
    query.order,
    query.created ?? null,
    query.updated ?? null,
  ]);
  const cached = caches.list.get<TAssemblyList>(key);
  if (cached) return cached;

  const window = pageWindow(query.page, query.pageSize);
  const keyword = query.keyword?.trim();
  // A keyword made only of punctuation matches nothing rather than everything.
  const match = keyword ? (ftsQuery(keyword) ?? false) : null;
  const shipType = query.shipType?.trim() || null;
  const hulls = shipType === null ? null : (await hullsOf(db).all({ shipType })).map((hull) => hull.id);
  const hullParams = Object.fromEntries((hulls ?? []).map((id, i) => [`hull${i}`, id]));
  let result: TAssemblyList;
  if (match === false || hulls?.length === 0) {
    // No hull of the catalog is of that class (or nothing searchable): nothing to walk.
    result = { data: [], pagination: window.describe(0), truncated: false };
  } else if (match === null && query.created === undefined && query.updated === undefined) {
    const params = { hulls: JSON.stringify(hulls ?? []), limit: window.limit, offset: window.offset, ...hullParams };
    const total = (await listableCount(db, hulls !== null).get(params))?.n ?? 0;
    const ids =
      window.offset < total
        ? (await pageIds(db, query.sort, query.order, hulls?.length ?? 0).all(params)).map((row) => row.id!)
        : [];
    result = {
      data: (await rowsInOrder(db, ids)).map(toSummary),
      pagination: window.describe(total),
      truncated: false,
    };
  } else {
    const { found, ordered, filtered } = await candidates(db, query, match, hulls, hullParams);
    let ids = found.slice(0, MAX_SEARCH_RESULTS);
    if (filtered && ids.length > 0) {
      const inside = new Set(
        (await inRanges(db).all({ ids: JSON.stringify(ids), ...rangeParams(query.created, query.updated) })).map(
          (row) => row.id,
        ),
      );
      ids = ids.filter((id) => inside.has(id));
    }
    // Candidates already in the page's order are sliced; otherwise all of them are ranked and the page kept.
    const pageOf = ordered
      ? ids.slice(window.offset, window.offset + window.limit)
      : ids.length > window.offset
        ? (
            await rankAmong(db, query.sort, query.order).all({
              ids: JSON.stringify(ids),
              limit: window.limit,
              offset: window.offset,
            })
          ).map((row) => row.id)
        : [];
    result = {
      data: (await rowsInOrder(db, pageOf)).map(toSummary),
      pagination: window.describe(ids.length),
      truncated: found.length > MAX_SEARCH_RESULTS,
    };
  }
  // Pages count against the read cache's byte budget like stored REST answers: a burst of distinct searches would otherwise fill 2,000 entries with ~15 KB each.
  caches.list.set(key, result, { bytes: LIST_PAGE_HEAP_BYTES + result.data.length * SUMMARY_HEAP_BYTES });
  return result;
}

/**
 * The candidates of a keyword search or a date range, at most MAX_SEARCH_RESULTS + 1 (one more tells
 * "exactly the cap" from "more"), each source walked off an index and stopped there:
 * - a keyword: its matches off the FTS5 index (the shipType inside the MATCH), newest first (oldest
 *   first for sort=latest&order=asc); the ranges then filter them;
 * - no keyword: the range on the sorted field (created for latest, updated for updated) walked in the
 *   page's order, else the created range (else the updated one) newest first, over the ship_id-led
 *   index per hull with a shipType; the other range then filters them.
 * `ordered`: they come in the page's own order (no ranking needed).
 */
async function candidates(
  db: TDb,
  query: TListQuery,
  match: string | null,
  hulls: string[] | null,
  hullParams: Record<string, string>,
) {
  const cap = MAX_SEARCH_RESULTS + 1;
  const ranged = query.created !== undefined || query.updated !== undefined;
  if (match !== null) {
    const direction = query.sort === 'latest' ? query.order : 'desc';
    const found = await candidateIds(db, direction, searchMatch(match, hulls), cap);
    return { found, ordered: query.sort === 'latest', filtered: ranged };
  }
  const onSort: TRangeField | null = query.sort === 'latest' ? 'created' : query.sort === 'updated' ? 'updated' : null;
  const field: TRangeField =
    onSort !== null && query[onSort] !== undefined ? onSort : query.created !== undefined ? 'created' : 'updated';
  const direction = field === onSort ? query.order : 'desc';
  const rows = await rangeIds(db, field, direction, hulls?.length ?? 0).all({
    ...rangeBounds(query[field]),
    cap,
    ...hullParams,
  });
  // (created_at, id) is not exactly id order (a clock set back), so sort=latest still ranks by id.
  return {
    found: rows.map((row) => row.id as number),
    ordered: field === onSort && field === 'updated',
    filtered: query[field === 'created' ? 'updated' : 'created'] !== undefined,
  };
}
