// The caller's own `isLiked` on assembly items and list pages (issue 19): read from the likes of
// assemblies (likes.ts writes them).
import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { likes } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import type { TAssemblyList } from './schemas';

const ofAssemblies = eq(likes.targetType, 'assembly');

/** Whether `userId` likes the assembly with this uuid (false for anonymous callers). */
export async function isLikedBy(db: TDb, userId: string | undefined, uuid: string): Promise<boolean> {
  if (userId === undefined) return false;
  const found = await db
    .select({ userId: likes.userId })
    .from(likes)
    .where(and(ofAssemblies, eq(likes.targetId, uuid), eq(likes.userId, userId)))
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
    .select({ uuid: likes.targetId })
    .from(likes)
    .where(
      and(
        ofAssemblies,
        inArray(
          likes.targetId,
          page.data.map((item) => item.uuid),
        ),
        eq(likes.userId, viewerId),
      ),
    )
    .all();
  if (rows.length === 0) return page;
  const liked = new Set(rows.map((row) => row.uuid));
  return { ...page, data: page.data.map((item) => (liked.has(item.uuid) ? { ...item, isLiked: true } : item)) };
}
