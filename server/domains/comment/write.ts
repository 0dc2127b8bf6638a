// Writing comments: create, edit (the author), delete (the author, the target's creator, an admin).
// The checks that may hash (a private assembly's password) or reach the network (the rate limit, the
// captcha's once-only record) run before the write; the write re-reads what it depends on inside its
// transaction, so every call holds on its own under any interleaving (a tRPC batch, concurrent REST).
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { comments } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import {
  findTarget,
  isTargetType,
  targetEntry,
  type TPasswordGuesses,
  type TTarget,
  type TTargetType,
} from '../assembly';
import type { TCaptchaAnswer } from '../captcha/schemas';
import { assertCommentable, assertCommentsVisible, assertStillCommentable } from './access';
import { findComment, toComment, type TCommentRow } from './queries';
import type { TComment, TCommentDeleted } from './schemas';

type TCaller = { userId: string; password?: string; guesses?: TPasswordGuesses };

function commentNotFound(id: string): AppError {
  return new AppError('NOT_FOUND', `Comment ${id} not found`);
}

/**
 * The target type's own rules for a comment's write (targets.ts: a smugglers' report's privileges, one
 * comment per author), run before the write and again with its transaction.
 */
async function assertTargetRules(
  deps: TDepsOf<'db' | 'now'>,
  input: { target: TTarget; userId: string; action: 'create' | 'edit' | 'delete' },
): Promise<void> {
  const entry = targetEntry(input.target.type);
  await entry.assertMayComment?.(deps, input);
  if (input.action === 'create' && entry.oneCommentPerAuthor) {
    const own = await deps.db
      .select({ id: comments.id })
      .from(comments)
      .where(
        and(
          eq(comments.targetType, input.target.type),
          eq(comments.targetId, input.target.id),
          eq(comments.authorId, input.userId),
        ),
      )
      .get();
    if (own)
      throw new AppError('CONFLICT', `You have already commented on this ${entry.noun}: edit your comment instead`, {
        data: { commentId: own.id },
      });
  }
}

/** A comment's target as stored (its type and id), in the trash too; undefined when gone. */
async function storedTarget(db: Parameters<typeof findTarget>[0], row: Pick<TCommentRow, 'targetType' | 'targetId'>) {
  return isTargetType(row.targetType) ? await findTarget(db, row.targetType, row.targetId) : undefined;
}

/**
 * POST /comment. Order of the checks: the target (404, 403, comments off 403), then the author's
 * write limit (429), then the captcha when one is given (400; spent once, whatever follows), then the
 * insert, in a transaction that re-reads the target (assertStillCommentable). The comment is stored
 * under the target's own type and id (an NPC's id sent as item: npc).
 */
export async function createComment(
  deps: TDepsOf<'db' | 'now' | 'limits' | 'captcha'>,
  input: TCaller & { targetType: TTargetType; targetId: string; content: string; captcha?: TCaptchaAnswer },
): Promise<TComment> {
  const { db } = deps;
  const now = deps.now();
  const checked = await assertCommentable(await findTarget(db, input.targetType, input.targetId), {
    ...input,
    viewerId: input.userId,
  });
  const at = (handle: TDb) => ({ db: handle, now: () => now });
  await assertTargetRules(at(db), { target: checked, userId: input.userId, action: 'create' });
  await deps.limits.commentWrite.hit(input.userId);
  if (input.captcha !== undefined) await deps.captcha.verify(input.captcha, now);
  const id = randomUUID();
  const row = await transaction(db, async (tx) => {
    const target = assertStillCommentable(checked, await findTarget(tx, checked.type, checked.id), input.userId);
    await assertTargetRules(at(tx), { target, userId: input.userId, action: 'create' });
    await tx.insert(comments).values({
      id,
      targetType: target.type,
      targetId: target.id,
      authorId: input.userId,
      content: input.content,
      createdAt: now,
      updatedAt: now,
    });
    return await findComment(tx, id);
  });
  if (!row) throw new AppError('INTERNAL_SERVER_ERROR', `Comment ${id} was written but cannot be read back`);
  return toComment(row);
}

/**
 * Runs a check of a comment's target, its "not found" (trashed, gone) said of the comment: a caller
 * who holds only a comment id does not learn its target from the error.
 */
async function asComment<T>(id: string, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw commentNotFound(id);
    throw error;
  }
}

/** The comment and its target, or a 404 when either is gone. */
async function findWithTarget(deps: TDepsOf<'db'>, id: string): Promise<{ comment: TCommentRow; target: TTarget }> {
  const comment = await findComment(deps.db, id);
  const target = comment ? await storedTarget(deps.db, comment) : undefined;
  if (!comment || !target) throw commentNotFound(id);
  return { comment, target };
}

/**
 * POST /comment/edit: its author only (403), on a target they may still comment on (as create:
 * 404 trashed, 403 private without its password or comments off), within the same write limit.
 */
export async function editComment(
  deps: TDepsOf<'db' | 'now' | 'limits'>,
  input: TCaller & { id: string; content: string },
): Promise<TComment> {
  const { db } = deps;
  const now = deps.now();
  const { comment, target } = await findWithTarget(deps, input.id);
  if (comment.authorId !== input.userId) throw new AppError('FORBIDDEN', 'Only its author may edit a comment');
  const checked = await asComment(input.id, () =>
    assertCommentable(target, { ...input, targetType: target.type, targetId: target.id, viewerId: input.userId }),
  );
  const at = (handle: TDb) => ({ db: handle, now: () => now });
  await assertTargetRules(at(db), { target: checked, userId: input.userId, action: 'edit' });
  await deps.limits.commentWrite.hit(input.userId);
  const row = await transaction(db, async (tx) => {
    const current = await findTarget(tx, checked.type, checked.id);
    if (!current || current.deletedAt !== null) throw commentNotFound(input.id);
    assertStillCommentable(checked, current, input.userId);
    await assertTargetRules(at(tx), { target: current, userId: input.userId, action: 'edit' });
    const changed = await tx
      .update(comments)
      .set({ content: input.content, updatedAt: now })
      .where(eq(comments.id, input.id))
      .returning({ id: comments.id });
    // Deleted meanwhile (by its author, the target's creator or an admin).
    if (changed.length === 0) throw commentNotFound(input.id);
    return await findComment(tx, input.id);
  });
  if (!row) throw commentNotFound(input.id);
  return toComment(row);
}

/**
 * POST /comment/delete, for good. An admin deletes any comment. Anyone else must see it (its target
 * readable as for the list: a trashed assembly 404 unless its creator, a private one 403 without its
 * password) and be its author or the target's creator (403; a codex entry has no creator: its
 * comments are moderated by their authors and the admins). Comments switched off do not stop a
 * deletion. Of concurrent deletions of one comment, one succeeds and the others are 404s.
 */
export async function deleteComment(
  deps: TDepsOf<'db' | 'now'>,
  input: TCaller & { id: string; isAdmin: boolean },
): Promise<TCommentDeleted> {
  const { db } = deps;
  const now = deps.now();
  const at = (handle: TDb) => ({ db: handle, now: () => now });
  const { comment, target } = await findWithTarget(deps, input.id);
  if (!input.isAdmin) {
    await asComment(input.id, () =>
      assertCommentsVisible(target, { ...input, targetType: target.type, targetId: target.id, viewerId: input.userId }),
    );
    if (comment.authorId !== input.userId && target.creatorId !== input.userId) {
      throw new AppError(
        'FORBIDDEN',
        "Only the comment's author, the assembly's creator or an admin may delete a comment",
      );
    }
    await assertTargetRules(at(db), { target, userId: input.userId, action: 'delete' });
  }
  await transaction(db, async (tx) => {
    // Trashed meanwhile: only its creator (or an admin) still sees its comments.
    const current = await findTarget(tx, target.type, target.id);
    if (!current || (!input.isAdmin && current.deletedAt !== null && current.creatorId !== input.userId))
      throw commentNotFound(input.id);
    if (!input.isAdmin) await assertTargetRules(at(tx), { target: current, userId: input.userId, action: 'delete' });
    const deleted = await tx.delete(comments).where(eq(comments.id, input.id)).returning({ id: comments.id });
    if (deleted.length === 0) throw commentNotFound(input.id);
  });
  return { id: input.id, deleted: true };
}
