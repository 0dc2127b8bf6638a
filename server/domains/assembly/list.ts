// GET /assembly/list: a page of public assemblies, by keyword, hull class and sort, through the
// `list` cache scope.
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import type { TAssemblyCaches } from './item';
import { hullsOf, listableCount, pageIds, rowsInOrder } from './list-queries';
import { toSummary } from './queries';
import type { TAssemblyList, TListQuery } from './schemas';
import { ftsQuery, rankAmong, searchCandidates, searchMatch } from './search';
import { MAX_SEARCH_RESULTS } from './schemas';

/** Heap size of a cached list page, measured: 15.4 KB for a page of 20 summaries (its JSON is 9.7 KB). */
const LIST_PAGE_HEAP_BYTES = 512;
const SUMMARY_HEAP_BYTES = 750;

/** A page of the list, from the `list` scope when cached there (every assembly write drops the scope). */
export async function listAssemblies(deps: TDepsOf<'db'> & TAssemblyCaches<'list'>, query: TListQuery): Promise<TAssemblyList> {
  const { db, caches } = deps;
  const key = JSON.stringify([query.page, query.pageSize, query.keyword ?? '', query.shipType ?? '', query.sort]);
  const cached = caches.list.get<TAssemblyList>(key);
  if (cached) return cached;

  const window = pageWindow(query.page, query.pageSize);
  const keyword = query.keyword?.trim();
  // A keyword made only of punctuation matches nothing rather than everything.
  const match = keyword ? (ftsQuery(keyword) ?? false) : null;
  const shipType = query.shipType?.trim() || null;
  const hulls = shipType === null ? null : (await hullsOf(db).all({ shipType })).map((hull) => hull.id);
  let result: TAssemblyList;
  if (match === false || hulls?.length === 0) {
    // No hull of the catalog is of that class (or nothing searchable): nothing to walk.
    result = { data: [], pagination: window.describe(0), truncated: false };
  } else if (match === null) {
    const params = { hulls: JSON.stringify(hulls ?? []), limit: window.limit, offset: window.offset, ...Object.fromEntries((hulls ?? []).map((id, i) => [`hull${i}`, id])) };
    const total = (await listableCount(db, hulls !== null).get(params))?.n ?? 0;
    const ids = window.offset < total ? (await pageIds(db, query.sort, hulls?.length ?? 0).all(params)).map((row) => row.id!) : [];
    result = { data: (await rowsInOrder(db, ids)).map(toSummary), pagination: window.describe(total), truncated: false };
  } else {
    // One more than the cap tells "exactly the cap" from "more than the cap".
    const found = JSON.parse((await searchCandidates(db).get({ match: searchMatch(match, hulls), cap: MAX_SEARCH_RESULTS + 1 }))?.ids ?? '[]') as number[];
    const ids = found.slice(0, MAX_SEARCH_RESULTS);
    // `latest` is the candidates' own order; the other sorts rank all candidates and keep the page.
    const pageOf =
      query.sort === 'latest'
        ? ids.slice(window.offset, window.offset + window.limit)
        : ids.length > window.offset
          ? (await rankAmong(db, query.sort).all({ ids: JSON.stringify(ids), limit: window.limit, offset: window.offset })).map((row) => row.id)
          : [];
    result = { data: (await rowsInOrder(db, pageOf)).map(toSummary), pagination: window.describe(ids.length), truncated: found.length > MAX_SEARCH_RESULTS };
  }
  // Pages count against the read cache's byte budget like stored REST answers: a burst of distinct searches would otherwise fill 2,000 entries with ~15 KB each.
  caches.list.set(key, result, { bytes: LIST_PAGE_HEAP_BYTES + result.data.length * SUMMARY_HEAP_BYTES });
  return result;
}
