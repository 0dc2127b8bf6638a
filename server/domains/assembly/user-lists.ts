// A user's lists (issue 19: the web client's user/me/assemblys, user/space/assemblys, user/likes,
// user/space/likes; likes across target types since issue 34): pages whose assemblies are in the list
// item form of GET /assembly/list (toSummary), each one walk of an index of that user's rows,
// offset-paged with the one pagination helper and bounded by the procedures to the first
// MAX_LIST_WINDOW entries (as the list is).
import { and, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteSelect } from 'drizzle-orm/sqlite-core';
import { assemblies, codexEntries, likes } from '../../../db/schema';
import type { TDb } from '../../../db/client';
import type { TDepsOf } from '../../deps';
import { pageWindow, type TPagination } from '../../schemas';
import { withIsLiked } from './like-reads';
import { listable } from './list-queries';
import { rowsOf, selectRows, toSummary } from './queries';
import type { TCodexKind } from '../codex/schemas';
import type { TAssemblySummary, TUserLike, TUserLikesPage } from './schemas';

export interface TUserAssemblyPage {
  data: TAssemblySummary[];
  pagination: TPagination;
}

interface TUserPageInput {
  userId: string;
  page: number;
  pageSize: number;
}

/**
 * Not credited to its creator in public (attr.isAnonymous): a user's space leaves such assemblies
 * out, or it would name the creator the answers hide. JSON true reads as 1 in SQLite.
 */
function credited(): SQL {
  return sql`json_extract(${assemblies.client}, '$.attr.isAnonymous') is not 1`;
}

/**
 * A page of the user's assemblies matching `where` (which pins creator_id), newest first: the
 * assemblies_creator index (creator_id, deleted_at, then the rowid id) gives the order without a sort.
 */
async function creatorPage(deps: TDepsOf<'db'>, input: TUserPageInput, where: SQL): Promise<TUserAssemblyPage> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const total = (await db.select({ n: count() }).from(assemblies).where(where).get())?.n ?? 0;
  const rows =
    window.offset < total
      ? rowsOf(
          await selectRows(db)
            .where(where)
            .orderBy(desc(assemblies.id))
            .limit(window.limit)
            .offset(window.offset)
            .values(),
        )
      : [];
  return { data: rows.map(toSummary), pagination: window.describe(total) };
}

/** user/me/assemblys: every assembly of the caller that is not in the trash, private ones included (their own). */
export function listOwnAssemblies(deps: TDepsOf<'db'>, input: TUserPageInput): Promise<TUserAssemblyPage> {
  return creatorPage(deps, input, and(eq(assemblies.creatorId, input.userId), isNull(assemblies.deletedAt))!);
}

/**
 * user/space/assemblys: what anyone may see of a user's assemblies: listable ones (public, not in
 * the trash) that credit them (not anonymous), with the viewer's own isLiked.
 */
export async function listSpaceAssemblies(
  deps: TDepsOf<'db'>,
  input: TUserPageInput & { viewerId?: string },
): Promise<TUserAssemblyPage> {
  const page = await creatorPage(deps, input, and(eq(assemblies.creatorId, input.userId), listable(), credited())!);
  return withViewerLikes(deps, input.viewerId, page);
}

/**
 * The likes of a user a list shows, each joined to its target: its assembly (a lookup of its uuid)
 * or its codex entry (a lookup of the key). Listable assemblies (public, not in the trash: a private
 * assembly liked with its password is never listed, a list item carries the whole loadout) and codex
 * entries. The page's rows and its count (countUserLikes) share it.
 */
function userLikesWhere(userId: string) {
  return and(
    eq(likes.userId, userId),
    or(and(eq(likes.targetType, 'assembly'), listable()), isNotNull(codexEntries.id)),
  );
}

function joinTargets<T extends SQLiteSelect>(query: T) {
  return query
    .leftJoin(assemblies, and(eq(likes.targetType, 'assembly'), eq(assemblies.uuid, likes.targetId)))
    .leftJoin(codexEntries, and(eq(codexEntries.kind, likes.targetType), eq(codexEntries.id, likes.targetId)));
}

/** A user's likes, most recently liked first: a backward walk of likes_user (user_id, created_at). */
export function selectUserLikes(db: TDb, userId: string) {
  return joinTargets(
    db
      .select({
        targetType: likes.targetType,
        targetId: likes.targetId,
        likedAt: likes.createdAt,
        name: codexEntries.name,
        type: codexEntries.type,
        rarity: codexEntries.rarity,
        season: codexEntries.season,
      })
      .from(likes)
      .$dynamic(),
  )
    .where(userLikesWhere(userId))
    .orderBy(desc(likes.createdAt), sql`${likes}.rowid desc`);
}

export function countUserLikes(db: TDb, userId: string) {
  return joinTargets(db.select({ n: count() }).from(likes).$dynamic()).where(userLikesWhere(userId));
}

/**
 * user/likes and user/space/likes (issue 34: across target types): a page of selectUserLikes, its
 * assemblies answered as items of GET /assembly/list (isLiked the viewer's own), its codex entries by
 * name and the few fields a list shows.
 */
export async function listLikes(
  deps: TDepsOf<'db'>,
  input: TUserPageInput & { viewerId?: string },
): Promise<TUserLikesPage> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const total = (await countUserLikes(db, input.userId).get())?.n ?? 0;
  const rows =
    window.offset < total
      ? await selectUserLikes(db, input.userId).limit(window.limit).offset(window.offset).all()
      : [];
  const uuids = rows.filter((row) => row.targetType === 'assembly').map((row) => row.targetId);
  const summaries = new Map<string, TAssemblySummary>();
  if (uuids.length > 0) {
    const found = rowsOf(await selectRows(db).where(inArray(assemblies.uuid, uuids)).values()).map(toSummary);
    // The user's own likes: every item is liked by the viewer.
    const marked =
      input.viewerId === input.userId
        ? found.map((item) => ({ ...item, isLiked: true }))
        : (await withViewerLikes(deps, input.viewerId, { data: found, pagination: window.describe(found.length) }))
            .data;
    for (const item of marked) summaries.set(item.uuid, item);
  }
  const data = rows.flatMap((row): TUserLike[] => {
    const likedTime = row.likedAt.toISOString();
    if (row.targetType === 'assembly') {
      // Gone between the two reads (purged): left out of this page.
      const summary = summaries.get(row.targetId);
      return summary ? [{ ...summary, targetType: 'assembly', targetId: row.targetId, likedTime }] : [];
    }
    const entry: TUserLike = {
      targetType: row.targetType as TCodexKind,
      targetId: row.targetId,
      name: row.name ?? row.targetId,
      type: row.type,
      rarity: row.rarity,
      season: row.season,
      likedTime,
    };
    return [entry];
  });
  return { data, pagination: window.describe(total) };
}

/** The viewer's own isLiked on a page (like-reads.ts's withIsLiked, which works on list pages). */
async function withViewerLikes(
  deps: TDepsOf<'db'>,
  viewerId: string | undefined,
  page: TUserAssemblyPage,
): Promise<TUserAssemblyPage> {
  const { data, pagination } = await withIsLiked(deps, { viewerId, page: { ...page, truncated: false } });
  return { data, pagination };
}
