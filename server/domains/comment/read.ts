// Reading comments: a target's (GET /comment/comments) and the caller's own across targets (GET /user/comments).
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import { findTarget, type TPasswordGuesses } from '../assembly';
import { assertCommentsVisible } from './access';
import {
  countMyComments,
  countTargetComments,
  selectMyComments,
  selectTargetComments,
  toComment,
  toMyComment,
} from './queries';
import type { TCommentList, TCommentListInput, TMyCommentList, TMyCommentsInput } from './schemas';

/**
 * One page of a target's comments, newest first (sortOrder=asc: oldest first), to anyone who may read
 * the target (assertCommentsVisible). Comments stay listed when the creator switches them off.
 */
export async function listComments(
  deps: TDepsOf<'db'>,
  input: TCommentListInput & { viewerId?: string; guesses?: TPasswordGuesses },
): Promise<TCommentList> {
  const { db } = deps;
  const target = await assertCommentsVisible(await findTarget(db, input.targetType, input.targetId), input);
  const window = pageWindow(input.page, input.pageSize);
  // Both statements walk the index (target_type, target_id, created_at) of this target only.
  const [rows, total] = await Promise.all([
    selectTargetComments(db, target, input.sortOrder).limit(window.limit).offset(window.offset).all(),
    countTargetComments(db, target).get(),
  ]);
  return { data: rows.map(toComment), pagination: window.describe(total?.n ?? 0) };
}

/**
 * The caller's own comments, newest first, across target types, on the targets the caller may read
 * without a password: codex entries, public assemblies not in the trash, and the caller's own (in
 * the trash too). Comments on someone else's private or trashed assembly are left out, as the
 * assembly is: they are back when it is readable again, and the assembly's own list shows them to
 * whoever has its password.
 */
export async function listMyComments(
  deps: TDepsOf<'db'>,
  input: TMyCommentsInput & { userId: string },
): Promise<TMyCommentList> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const [rows, total] = await Promise.all([
    selectMyComments(db, input.userId).limit(window.limit).offset(window.offset).all(),
    countMyComments(db, input.userId).get(),
  ]);
  return { data: rows.map(toMyComment), pagination: window.describe(total?.n ?? 0) };
}
