// Reading comments: an assembly's (GET /comment/comments) and the caller's own (GET /user/comments).
import { and, asc, count, desc, eq, isNull, or } from 'drizzle-orm';
import { assemblies, assemblyComments } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import type { TPasswordGuesses } from '../assembly';
import { assertCommentsVisible, findTarget } from './access';
import { commentRowid, selectComments, toComment, toMyComment } from './queries';
import type { TCommentList, TCommentListInput, TMyCommentList, TMyCommentsInput } from './schemas';

/**
 * One page of an assembly's comments, newest first (sortOrder=asc: oldest first), to anyone who may
 * read the assembly (assertCommentsVisible). Comments stay listed when the creator switches them off.
 */
export async function listComments(
  deps: TDepsOf<'db'>,
  input: TCommentListInput & { viewerId?: string; guesses?: TPasswordGuesses },
): Promise<TCommentList> {
  const { db } = deps;
  const target = await assertCommentsVisible(await findTarget(db, input.targetId), {
    uuid: input.targetId,
    viewerId: input.viewerId,
    password: input.password,
    guesses: input.guesses,
  });
  const window = pageWindow(input.page, input.pageSize);
  const order = input.sortOrder === 'asc' ? asc : desc;
  const where = eq(assemblyComments.assemblyId, target.id);
  // Both statements walk the index (assembly_id, created_at) of this assembly only.
  const [rows, total] = await Promise.all([
    selectComments(db)
      .where(where)
      .orderBy(order(assemblyComments.createdAt), order(commentRowid))
      .limit(window.limit)
      .offset(window.offset)
      .all(),
    db.select({ n: count() }).from(assemblyComments).where(where).get(),
  ]);
  return { data: rows.map(toComment), pagination: window.describe(total?.n ?? 0) };
}

/**
 * The caller's own comments, newest first, on the assemblies the caller may read without a password:
 * public ones not in the trash, and the caller's own (in the trash too). Comments on someone else's
 * private or trashed assembly are left out, as the assembly is: they are back when it is readable
 * again, and the assembly's own list shows them to whoever has its password.
 */
export async function listMyComments(
  deps: TDepsOf<'db'>,
  input: TMyCommentsInput & { userId: string },
): Promise<TMyCommentList> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const where = and(
    eq(assemblyComments.authorId, input.userId),
    or(and(eq(assemblies.isPublic, true), isNull(assemblies.deletedAt)), eq(assemblies.creatorId, input.userId)),
  );
  // The author's index (author_id, created_at) gives the order; each comment's assembly is a primary-key lookup.
  const [rows, total] = await Promise.all([
    selectComments(db)
      .where(where)
      .orderBy(desc(assemblyComments.createdAt), desc(commentRowid))
      .limit(window.limit)
      .offset(window.offset)
      .all(),
    db
      .select({ n: count() })
      .from(assemblyComments)
      .innerJoin(assemblies, eq(assemblies.id, assemblyComments.assemblyId))
      .where(where)
      .get(),
  ]);
  return { data: rows.map(toMyComment), pagination: window.describe(total?.n ?? 0) };
}
