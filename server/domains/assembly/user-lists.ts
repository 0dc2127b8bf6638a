// A user's lists of assemblies (issue 19: the web client's user/me/assemblys, user/space/assemblys,
// user/likes, user/space/likes): pages of the list item form of GET /assembly/list (toSummary), each
// one walk of an index of that user's rows, offset-paged with the one pagination helper and bounded
// by the procedures to the first MAX_LIST_WINDOW entries (as the list is).
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { assemblies, assemblyLikes } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pageWindow, type TPagination } from '../../schemas';
import { withIsLiked } from './likes';
import { listable } from './list-queries';
import { rowsOf, selectRows, toSummary } from './queries';
import type { TAssemblySummary } from './schemas';

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
 * user/likes and user/space/likes: the listable assemblies (public, not in the trash) the user likes,
 * most recently liked first, walking assembly_likes_user (user_id, created_at) backwards. A private
 * assembly liked with its password is never listed: a list item carries the whole loadout.
 */
export async function listLikedAssemblies(
  deps: TDepsOf<'db'>,
  input: TUserPageInput & { viewerId?: string },
): Promise<TUserAssemblyPage> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const joined = and(eq(assemblyLikes.assemblyId, assemblies.id), eq(assemblyLikes.userId, input.userId));
  const total =
    (await db.select({ n: count() }).from(assemblyLikes).innerJoin(assemblies, joined).where(listable()).get())?.n ?? 0;
  const rows =
    window.offset < total
      ? rowsOf(
          await selectRows(db)
            .innerJoin(assemblyLikes, joined)
            .where(listable())
            .orderBy(desc(assemblyLikes.createdAt), sql`${assemblyLikes}.rowid desc`)
            .limit(window.limit)
            .offset(window.offset)
            .values(),
        )
      : [];
  const page = { data: rows.map(toSummary), pagination: window.describe(total) };
  // The user's own likes: every item is liked by the viewer.
  if (input.viewerId === input.userId) return { ...page, data: page.data.map((item) => ({ ...item, isLiked: true })) };
  return withViewerLikes(deps, input.viewerId, page);
}

/** The viewer's own isLiked on a page (likes.ts's withIsLiked, which works on list pages). */
async function withViewerLikes(
  deps: TDepsOf<'db'>,
  viewerId: string | undefined,
  page: TUserAssemblyPage,
): Promise<TUserAssemblyPage> {
  const { data, pagination } = await withIsLiked(deps, { viewerId, page: { ...page, truncated: false } });
  return { data, pagination };
}
