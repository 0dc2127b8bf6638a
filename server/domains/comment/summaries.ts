// What a list of targets shows of their comments (issue 35: a page of smugglers' reports): how many
// each has, and the caller's own on each. One statement each for the whole page, on the index of
// the target's comments (comments_target) and the one-per-author index of the types that take one.
import { and, count, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { comments } from '../../../db/schema';
import type { TTargetType } from '../assembly';

/** The number of comments of each target of `ids` (a target without any is left out). */
export async function commentCounts(db: TDb, type: TTargetType, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: comments.targetId, n: count() })
    .from(comments)
    .where(and(eq(comments.targetType, type), inArray(comments.targetId, ids)))
    .groupBy(comments.targetId)
    .all();
  return new Map(rows.map((row) => [row.id, row.n]));
}

export interface TOwnComment {
  id: string;
  content: string;
  createdTime: string;
  updatedTime: string;
}

/** The author's comment on each target of `ids`, for target types that take one per author (targets.ts). */
export async function ownComments(
  db: TDb,
  type: TTargetType,
  ids: string[],
  authorId: string,
): Promise<Map<string, TOwnComment>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      targetId: comments.targetId,
      id: comments.id,
      content: comments.content,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
    })
    .from(comments)
    .where(and(eq(comments.targetType, type), inArray(comments.targetId, ids), eq(comments.authorId, authorId)))
    .all();
  return new Map(
    rows.map((row) => [
      row.targetId,
      {
        id: row.id,
        content: row.content,
        createdTime: row.createdAt.toISOString(),
        updatedTime: row.updatedAt.toISOString(),
      },
    ]),
  );
}

/** A comment's target as stored, or undefined for an unknown comment. */
export async function commentTarget(
  db: TDb,
  id: string,
): Promise<{ targetType: string; targetId: string } | undefined> {
  return await db
    .select({ targetType: comments.targetType, targetId: comments.targetId })
    .from(comments)
    .where(eq(comments.id, id))
    .get();
}
