// Who may see and write the comments of an assembly: the assembly domain's read rule (assertReadable:
// public, its creator, or a private one's password, with the caller's guess limits), plus the trash
// (only its creator sees a trashed assembly's comments) and the creator's switch `attr.isComment`.
import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies } from '../../../db/schema';
import { AppError } from '../../errors';
import { assertReadable, clientOf, type TPasswordGuesses } from '../assembly';

const targetColumns = {
  id: assemblies.id,
  uuid: assemblies.uuid,
  name: assemblies.name,
  isPublic: assemblies.isPublic,
  creatorId: assemblies.creatorId,
  passwordHash: assemblies.passwordHash,
  deletedAt: assemblies.deletedAt,
  client: assemblies.client,
};

/** The assembly with this uuid, trashed or not (a transaction passes its own `tx`). */
export async function findTarget(db: TDb, uuid: string) {
  return await db.select(targetColumns).from(assemblies).where(eq(assemblies.uuid, uuid)).get();
}

/** The facts of an assembly its comments' rules read (targetColumns). */
export type TCommentTarget = NonNullable<Awaited<ReturnType<typeof findTarget>>>;

/** The assembly with this row id (the comment's), trashed or not. */
export async function findTargetById(db: TDb, id: number): Promise<TCommentTarget | undefined> {
  return await db.select(targetColumns).from(assemblies).where(eq(assemblies.id, id)).get();
}

function notFound(uuid: string): AppError {
  return new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
}

/**
 * Reading the comments: as reading the assembly (GET /assembly/item: 404 unknown, 403 private without
 * its password), except that a trashed assembly's comments stay visible to its creator (who still
 * sees it in the trash) and are a 404 for everyone else.
 */
export async function assertCommentsVisible(
  target: TCommentTarget | undefined,
  input: { uuid: string; viewerId?: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TCommentTarget> {
  if (!target || (target.deletedAt !== null && target.creatorId !== input.viewerId)) throw notFound(input.uuid);
  await assertReadable(target.uuid, target, input.viewerId, input.password, input.guesses);
  return target;
}

/**
 * Writing a comment (create, edit): the assembly must be readable and not in the trash (404 for its
 * creator too, as every write to a trashed assembly), and its comments switched on.
 */
export async function assertCommentable(
  target: TCommentTarget | undefined,
  input: { uuid: string; viewerId: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TCommentTarget> {
  if (!target || target.deletedAt !== null) throw notFound(input.uuid);
  await assertReadable(target.uuid, target, input.viewerId, input.password, input.guesses);
  assertCommentsOpen(target);
  return target;
}

/** The creator switched comments off (`assembly.attr.isComment: false`): no new comments or edits; the existing ones stay listed. */
export function assertCommentsOpen(target: Pick<TCommentTarget, 'client'>): void {
  if (clientOf(target).attr?.isComment === false) {
    throw new AppError('FORBIDDEN', 'Comments are switched off on this assembly', { key: 'comment.disabled' });
  }
}

/**
 * Inside the write's transaction, after the checks above ran outside it (a password check hashes):
 * the assembly as it is now must still take the write. Still there and not trashed (404), comments
 * still on (403), and readable by the same rule without a new password check: unchanged access facts,
 * or now public, or the caller's own (403 otherwise: it became private, or its password changed).
 */
export function assertStillCommentable(
  checked: TCommentTarget,
  now: TCommentTarget | undefined,
  viewerId: string,
): TCommentTarget {
  if (!now || now.deletedAt !== null) throw notFound(checked.uuid);
  const sameAccess =
    now.isPublic === checked.isPublic &&
    now.creatorId === checked.creatorId &&
    now.passwordHash === checked.passwordHash;
  if (!sameAccess && !now.isPublic && now.creatorId !== viewerId)
    throw new AppError('FORBIDDEN', 'This assembly is private');
  assertCommentsOpen(now);
  return now;
}
