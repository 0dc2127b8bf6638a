// The web client's likes (issue 19: GET /likes/check, POST /likes/toggle, GET /likes/count) and the
// caller's own `isLiked` on items and list pages. The same rows as POST /assembly/like: the writer is
// votes.ts's likeAssembly, the count the `likes` column it keeps.
import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies, assemblyLikes } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { assertReadable, type TPasswordGuesses } from './access';
import { findActive } from './queries';
import type { TAssemblyList } from './schemas';

type TTarget = { uuid: string; viewerId?: string; password?: string; guesses?: TPasswordGuesses };

/** Whether `userId` likes the assembly with this uuid (false for anonymous callers). */
export async function isLikedBy(db: TDb, userId: string | undefined, uuid: string): Promise<boolean> {
  if (userId === undefined) return false;
  const found = await db
    .select({ userId: assemblyLikes.userId })
    .from(assemblyLikes)
    .innerJoin(assemblies, eq(assemblies.id, assemblyLikes.assemblyId))
    .where(and(eq(assemblies.uuid, uuid), eq(assemblyLikes.userId, userId)))
    .get();
  return found !== undefined;
}

/**
 * A list page with the caller's own `isLiked` set. The page itself may come from the shared `list`
 * cache: it is copied, never changed, so no caller's likes reach another's answer. Anonymous callers
 * get the page as it is (isLiked false), which is also what stored answers hold.
 */
export async function withIsLiked(
  deps: TDepsOf<'db'>,
  { viewerId, page }: { viewerId?: string; page: TAssemblyList },
): Promise<TAssemblyList> {
  if (viewerId === undefined || page.data.length === 0) return page;
  const rows = await deps.db
    .select({ uuid: assemblies.uuid })
    .from(assemblyLikes)
    .innerJoin(assemblies, eq(assemblies.id, assemblyLikes.assemblyId))
    .where(
      and(
        eq(assemblyLikes.userId, viewerId),
        inArray(
          assemblies.uuid,
          page.data.map((item) => item.uuid),
        ),
      ),
    )
    .all();
  if (rows.length === 0) return page;
  const liked = new Set(rows.map((row) => row.uuid));
  return { ...page, data: page.data.map((item) => (liked.has(item.uuid) ? { ...item, isLiked: true } : item)) };
}

/** GET /likes/check: the caller's like of an assembly it may read (its own included: always false). */
export async function checkLike(
  deps: TDepsOf<'db'>,
  input: TTarget & { viewerId: string },
): Promise<{ isLiked: boolean }> {
  const row = await findActive(deps.db, input.uuid);
  await assertReadable(input.uuid, row, input.viewerId, input.password, input.guesses);
  return { isLiked: await isLikedBy(deps.db, input.viewerId, input.uuid) };
}

/** GET /likes/count: the number of likes of an assembly the caller may read. */
export async function likeCount(deps: TDepsOf<'db'>, input: TTarget): Promise<{ likeCount: number }> {
  const row = await findActive(deps.db, input.uuid);
  await assertReadable(input.uuid, row, input.viewerId, input.password, input.guesses);
  return { likeCount: row.likes };
}
