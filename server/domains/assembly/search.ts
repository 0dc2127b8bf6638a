// Keyword search: the FTS5 query built from a keyword, the candidates walked off the FTS5 index, and
// the SQL that ranks them by a sort.
import { sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { assemblies } from '../../../db/schema';
import { listableAmong, SORT_KEYS } from './list-queries';
import type { TListOrder, TListSort } from './schemas';

/**
 * An FTS5 query that matches every word of the keyword as a prefix, in the name or a tag (search as
 * you type). Each word is quoted (inner quotes doubled), so operators and punctuation in user input
 * are only ever text; words without a letter or digit cannot match anything and are dropped. Returns
 * null when nothing searchable is left. Prefixes of up to 10 characters have their own FTS5 index
 * (migration 0010), so they are walked newest first and stopped like whole words; a longer one makes
 * FTS5 merge the match lists of the terms it starts (few, for words that long) first.
 */
export function ftsQuery(keyword: string): string | null {
  // Control characters (a NUL above all) end an FTS5 string early and make MATCH fail: treat them as spaces.
  const words = keyword
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 16)
    .map((word) => `"${word.replace(/"/g, '""')}"*`);
  return words.length ? words.join(' ') : null;
}

/**
 * The candidates of a keyword search: the ids of the newest `cap` matches as one JSON array (the
 * oldest with direction asc, for sort=latest&sortOrder=asc), walked in rowid order straight off the FTS5 index, which holds only listable assemblies
 * (migration 0006). A shipType is part of the MATCH (searchMatch), so it filters inside FTS5 before
 * the cap, never after, and no row of `assemblies` is read. One string rather than up to 1,001 rows:
 * a fifth less CPU than reading them as rows (bench/README.md).
 */
export function searchCandidates(db: TDb, direction: TListOrder) {
  return prepared(db, `assembly.search.candidates:${direction}`, (d) => {
    const walk = d
      .select({ id: sql<number>`assemblies_fts.rowid`.as('id') })
      .from(sql`assemblies_fts`)
      .where(sql`assemblies_fts match ${sql.placeholder('match')}`)
      .orderBy(sql.raw(`assemblies_fts.rowid ${direction}`))
      .limit(sql.placeholder('cap'))
      .as('matches');
    // No ORDER BY inside the aggregate: sqld's statement parser refuses that syntax (SQLite 3.44's),
    // so the caller orders the ids (candidateIds).
    return d
      .select({ ids: sql<string>`json_group_array(${walk.id})` })
      .from(walk)
      .prepare();
  });
}

/** The candidates' ids, newest first (`desc`) or oldest first (`asc`): at most MAX_SEARCH_RESULTS + 1 numbers. */
export async function candidateIds(db: TDb, direction: TListOrder, match: string, cap: number): Promise<number[]> {
  const ids = JSON.parse((await searchCandidates(db, direction).get({ match, cap }))?.ids ?? '[]') as number[];
  // SQLite aggregates them in the walk's order in practice: checked in one pass (1 µs), where a sort of
  // 1,001 ids in order still calls its comparator a thousand times (12 µs, bench/README.md, issue 38).
  return inOrder(ids, direction) ? ids : ids.sort(direction === 'asc' ? (a, b) => a - b : (a, b) => b - a);
}

/** Whether `ids` already run in `direction`. */
export function inOrder(ids: number[], direction: TListOrder): boolean {
  for (let i = 1; i < ids.length; i++) {
    if (direction === 'asc' ? ids[i - 1]! > ids[i]! : ids[i - 1]! < ids[i]!) return false;
  }
  return true;
}

/**
 * The FTS5 query of a search: the keyword's words (ftsQuery) in the name and tags only, and, with a
 * shipType, one of the class's hulls as its hull_token term ('h' and the hex of the id's UTF-8, the
 * generated column of migration 0012). FTS5 intersects the word lists with the hulls' by seeking, so
 * a rare class among many matches costs about its own size, not the keyword's.
 */
export function searchMatch(words: string, hulls: string[] | null): string {
  const inText = `{name tags} : (${words})`;
  if (hulls === null) return inText;
  return `${inText} AND hull_token : (${hulls.map((id) => `"h${Buffer.from(id, 'utf8').toString('hex')}"`).join(' OR ')})`;
}

/**
 * The page of a keyword search or a date range in two steps, both over a JSON array of ids (one placeholder, one prepared
 * statement): rank the candidates by a sort reading only the columns it needs, then read the full
 * rows of the page alone (reading every candidate's full row into the sorter cost more than the rank).
 * The `+` keeps SQLite from walking a whole sort index (assemblies_hot, _rating) to avoid sorting at
 * most 1,000 candidates: it must look the candidates up by id and sort those.
 */
export function rankAmong(db: TDb, sort: TListSort, order: TListOrder) {
  return prepared(db, `assembly.search.rank:${sort}:${order}`, (d) => rankAmongQuery(d, sort, order).prepare());
}

/** rankAmong's statement, unprepared, for the query-plan test. */
export function rankAmongQuery(d: TDb, sort: TListSort, order: TListOrder) {
  return d
    .select({ id: assemblies.id })
    .from(assemblies)
    .where(listableAmong())
    .orderBy(...SORT_KEYS[sort].map((column) => sql`+${column} ${sql.raw(order)}`))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}
