// Likes of any target (issue 19 for assemblies, issue 34 for the codex): the web client's GET
// /likes/check, POST /likes/toggle, GET /likes/count, and POST /assembly/like, on one table and one
// writer. The target's rules come from its facts (targets.ts): readable as an assembly is (a codex
// entry always is), not your own, likes not switched off by a creator.
import { and, count, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { likes } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertReadable, type TPasswordGuesses } from './access';
import type { TAssemblyCaches } from './item';
import { findTarget, targetEntry, type TTarget, type TTargetType } from './targets';

interface TLikeInput {
  targetType: TTargetType;
  targetId: string;
  password?: string;
  guesses?: TPasswordGuesses;
}

function notFound(type: TTargetType, id: string): AppError {
  return new AppError('NOT_FOUND', `${targetEntry(type).label(id)} not found`);
}

/** The target as a like sees it: there and not in the trash (404), readable by the caller (403). */
async function likeableTarget(
  db: TDb,
  input: TLikeInput & { viewerId?: string },
  beforeReadCheck?: (target: TTarget) => void,
): Promise<TTarget> {
  const target = await findTarget(db, input.targetType, input.targetId);
  if (!target || target.deletedAt !== null) throw notFound(input.targetType, input.targetId);
  beforeReadCheck?.(target);
  await assertReadable(target.id, target, input.viewerId, input.password, input.guesses);
  return target;
}

function mine(target: TTarget, userId: string) {
  return and(eq(likes.targetType, target.type), eq(likes.targetId, target.id), eq(likes.userId, userId));
}

/** A target's likes: a count over one range of the likes key. */
export function countLikes(db: TDb, target: Pick<TTarget, 'type' | 'id'>) {
  return db
    .select({ n: count() })
    .from(likes)
    .where(and(eq(likes.targetType, target.type), eq(likes.targetId, target.id)));
}

async function countOf(db: TDb, target: TTarget): Promise<number> {
  return (await countLikes(db, target).get())?.n ?? 0;
}

/** GET /likes/check: the caller's like of a target it may read (its own assembly: always false). */
export async function checkLike(
  deps: TDepsOf<'db'>,
  input: TLikeInput & { viewerId: string },
): Promise<{ targetType: TTargetType; targetId: string; isLiked: boolean }> {
  const target = await likeableTarget(deps.db, input);
  const row = await deps.db.select({ userId: likes.userId }).from(likes).where(mine(target, input.viewerId)).get();
  return { targetType: target.type, targetId: target.id, isLiked: row !== undefined };
}

/** GET /likes/count: how many users like a target the caller may read. */
export async function likeCount(
  deps: TDepsOf<'db'>,
  input: TLikeInput & { viewerId?: string },
): Promise<{ targetType: TTargetType; targetId: string; likeCount: number }> {
  const target = await likeableTarget(deps.db, input);
  return { targetType: target.type, targetId: target.id, likeCount: await countOf(deps.db, target) };
}

/**
 * The one writer of likes (POST /likes/toggle, POST /assembly/like): `like` true or false sets the
 * caller's like, 'toggle' flips it. The target is read again inside the transaction (still there,
 * likes still on), and the flip reads and writes inside it too, so concurrent toggles by one user each
 * see the previous one's result and the count stays the number of rows. Your own target is a 403;
 * likes switched off by its creator make a new like a 403 (data.key assembly.likesDisabled), while
 * taking yours back works.
 */
export async function setLike(
  deps: TDepsOf<'db' | 'now'> & TAssemblyCaches,
  input: TLikeInput & { userId: string; like: boolean | 'toggle' },
): Promise<{ target: TTarget; liked: boolean; likeCount: number }> {
  const { db } = deps;
  const now = deps.now();
  const entry = targetEntry(input.targetType);
  const checked = await likeableTarget(db, { ...input, viewerId: input.userId }, (target) => {
    if (target.creatorId === input.userId)
      throw new AppError('FORBIDDEN', `You cannot like or rate your own ${entry.noun}`);
  });
  const result = await transaction(db, async (tx) => {
    const target = await findTarget(tx, checked.type, checked.id);
    if (!target || target.deletedAt !== null) throw notFound(input.targetType, input.targetId);
    const liked =
      input.like === 'toggle'
        ? (await tx.select({ userId: likes.userId }).from(likes).where(mine(target, input.userId)).get()) === undefined
        : input.like;
    if (liked) {
      // Read in the transaction, so a like cannot slip past a concurrent switch of the setting.
      if (!target.likesOn)
        throw new AppError('FORBIDDEN', `Likes are switched off for ${entry.noun} ${target.id} by its creator`, {
          key: 'assembly.likesDisabled',
        });
      await tx
        .insert(likes)
        .values({ targetType: target.type, targetId: target.id, userId: input.userId, createdAt: now })
        .onConflictDoNothing()
        .run();
    } else {
      await tx.delete(likes).where(mine(target, input.userId)).run();
    }
    const n = await countOf(tx, target);
    await targetEntry(target.type).likesCounted?.(tx, target, n);
    return { target, liked, likeCount: n };
  });
  await targetEntry(result.target.type).likesChanged?.(deps, result.target);
  return result;
}
