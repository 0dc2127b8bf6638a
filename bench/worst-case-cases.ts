/** bench/worst-case.ts's cases: the deepest reachable windows of lists, date ranges and searches, each request of a case a different window. */
import { MAX_LIST_WINDOW, MAX_SEARCH_RESULTS } from '../server/domains/assembly/schemas';

/**
 * The deep windows of a list or search whose results stop at `reach`: every page size from 100 down
 * to 1 at the last page that still fits, then each at the page before, and so on while the window
 * starts in the last tenth of `reach`. About 5,000 distinct windows for the list, 500 for a search,
 * so a case need not repeat a request (a repeat would be a read-cache hit).
 */
function deepWindows(reach: number): { page: number; pageSize: number }[] {
  const windows: { page: number; pageSize: number }[] = [];
  for (let back = 0; back < reach; back++) {
    const before = windows.length;
    for (let pageSize = 100; pageSize >= 1; pageSize--) {
      const page = Math.floor(reach / pageSize) - back;
      if (page >= 1 && (page - 1) * pageSize >= 0.9 * reach) windows.push({ page, pageSize });
    }
    if (windows.length === before) break;
  }
  return windows;
}
const WINDOWS = new Map<number, { page: number; pageSize: number }[]>();
function deepWindow(i: number, reach: number): { page: number; pageSize: number } {
  if (!WINDOWS.has(reach)) WINDOWS.set(reach, deepWindows(reach));
  const windows = WINDOWS.get(reach)!;
  return windows[i % windows.length]!;
}

/** A case: its name in the table, the path of its i-th request. */
export type TCase = { name: string; url: (i: number) => string };

const list =
  (params: string, reach = MAX_LIST_WINDOW) =>
  (i: number) => {
    const { page, pageSize } = deepWindow(i, reach);
    return `/api/assembly/list?${params}&page=${page}&pageSize=${pageSize}`;
  };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A search at the last page of the search cap; the keyword rotates too. */
const search = (params: string, keyword: (i: number) => string) => (i: number) => {
  const { page, pageSize } = deepWindow(i, MAX_SEARCH_RESULTS);
  return `/api/assembly/list?${params}&keyword=${encodeURIComponent(keyword(i))}&page=${page}&pageSize=${pageSize}`;
};
const letter = (i: number) => LETTERS[i % LETTERS.length]!;
const COMMON = ['storm', 'kraken', 'raider', 'merchant', 'broadside', 'ember', 'tide', 'reef', 'gale', 'corsair'];
const twoWords = (i: number) => `${COMMON[i % COMMON.length]} ${COMMON[(i * 3 + 1) % COMMON.length]}`;

// The generated hulls (bench/generate.ts) over the demo catalog: small = cutter + hulk (40% of rows),
// scout = dhow alone (20%), large = no hull of the catalog at all.
export const LIST_CASES: TCase[] = [
  { name: 'list latest, deepest page', url: list('sort=latest') },
  { name: 'list hottest, deepest page', url: list('sort=hottest') },
  { name: 'list rating, deepest page', url: list('sort=rating') },
  { name: 'list hottest shipType=small (2 hulls)', url: list('sort=hottest&shipType=small') },
  { name: 'list rating shipType=scout (1 hull)', url: list('sort=rating&shipType=scout') },
  { name: 'list latest shipType=tank (2 hulls)', url: list('sort=latest&shipType=tank') },
  { name: 'list latest shipType=large (no hull)', url: list('sort=latest&shipType=large') },
  { name: 'list updated, deepest page', url: list('sort=updated') },
  { name: 'list hottest asc, deepest page', url: list('sort=hottest&sortOrder=asc') },
  { name: 'list updated asc shipType=scout (1 hull)', url: list('sort=updated&sortOrder=asc&shipType=scout') },
];
/** Date ranges (issue 18) at the last page of their cap: a range as wide as the table, on the sorted field and on another. */
const WIDE = 'createdStart=2000-01-01&createdEnd=2100-01-01';
export const RANGE_CASES: TCase[] = [
  { name: 'range created, latest, last page', url: list(WIDE, MAX_SEARCH_RESULTS) },
  { name: 'range created, hottest, last page', url: list(`${WIDE}&sort=hottest`, MAX_SEARCH_RESULTS) },
  {
    name: 'range updated + created, rating asc, shipType=scout',
    url: list(`${WIDE}&updatedStart=2000-01-01&sort=rating&sortOrder=asc&shipType=scout`, MAX_SEARCH_RESULTS),
  },
  { name: 'range updated + search one letter, updated', url: search('sort=updated&updatedStart=2000-01-01', letter) },
];
export const SEARCH_CASES: TCase[] = [
  { name: 'search one letter, hottest, last page', url: search('sort=hottest', letter) },
  { name: 'search one letter, rating, last page', url: search('sort=rating', letter) },
  { name: 'search two common words, hottest', url: search('sort=hottest', twoWords) },
  { name: 'search one letter, latest, last page', url: search('sort=latest', letter) },
  {
    name: 'search common word + shipType=large',
    url: search('sort=latest&shipType=large', (i) => COMMON[i % COMMON.length]!),
  },
  { name: 'search one letter + shipType=scout, hottest', url: search('sort=hottest&shipType=scout', letter) },
];
/** The request of the issue: beyond the reachable window, so now a 400 (before: a full sort per page number). */
export const BEYOND: TCase = {
  name: 'list hottest page=500001 (issue 16)',
  url: (i) => `/api/assembly/list?sort=hottest&page=${500_001 + i}`,
};
