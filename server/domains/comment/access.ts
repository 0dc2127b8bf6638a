// Who may see and write the comments of a target (issue 19 for assemblies, issue 34 for any target):
// the target's read rule (an assembly's assertReadable: public, its creator, or a private one's
// password, with the caller's guess limits; a codex entry is public), the trash (only its creator sees
// a trashed assembly's comments) and the creator's switch `attr.isComment`. The facts come from the
// target table (server/domains/assembly/targets.ts); a target without a creator has none to switch
// comments off.
import { AppError } from '../../errors';
import { assertReadable, targetEntry, type TPasswordGuesses, type TTarget, type TTargetType } from '../assembly';

/** A target as errors name it: the client's type and id (`Assembly <uuid> not found`). */
export interface TTargetRef {
  targetType: TTargetType;
  targetId: string;
}

export function targetNotFound(ref: TTargetRef): AppError {
  return new AppError('NOT_FOUND', `${targetEntry(ref.targetType).label(ref.targetId)} not found`);
}

/**
 * Reading the comments: as reading the target (an assembly: 404 unknown, 403 private without its
 * password), except that a trashed assembly's comments stay visible to its creator (who still sees
 * it in the trash) and are a 404 for everyone else.
 */
export async function assertCommentsVisible(
  target: TTarget | undefined,
  input: TTargetRef & { viewerId?: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TTarget> {
  if (!target || (target.deletedAt !== null && target.creatorId !== input.viewerId)) throw targetNotFound(input);
  await assertReadable(target.id, target, input.viewerId, input.password, input.guesses);
  return target;
}

/**
 * Writing a comment (create, edit): the target must be readable and not in the trash (404 for its
 * creator too, as every write to a trashed assembly), and its comments switched on.
 */
export async function assertCommentable(
  target: TTarget | undefined,
  input: TTargetRef & { viewerId: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TTarget> {
  if (!target || target.deletedAt !== null) throw targetNotFound(input);
  await assertReadable(target.id, target, input.viewerId, input.password, input.guesses);
  assertCommentsOpen(target);
  return target;
}

/** The creator switched comments off (`assembly.attr.isComment: false`): no new comments or edits; the existing ones stay listed. */
export function assertCommentsOpen(target: Pick<TTarget, 'commentsOn'>): void {
  if (!target.commentsOn) {
    throw new AppError('FORBIDDEN', 'Comments are switched off on this assembly', { key: 'comment.disabled' });
  }
}

/**
 * Inside the write's transaction, after the checks above ran outside it (a password check hashes):
 * the target as it is now must still take the write. Still there and not trashed (404), comments
 * still on (403), and readable by the same rule without a new password check: unchanged access facts,
 * or now public, or the caller's own (403 otherwise: it became private, or its password changed).
 */
export function assertStillCommentable(checked: TTarget, now: TTarget | undefined, viewerId: string): TTarget {
  if (!now || now.deletedAt !== null) throw targetNotFound({ targetType: checked.type, targetId: checked.id });
  const sameAccess =
    now.isPublic === checked.isPublic &&
    now.creatorId === checked.creatorId &&
    now.passwordHash === checked.passwordHash;
  if (!sameAccess && !now.isPublic && now.creatorId !== viewerId)
    throw new AppError('FORBIDDEN', 'This assembly is private');
  assertCommentsOpen(now);
  return now;
}
