// Likes of any target (issue 19 for assemblies, issue 34 for the codex): the web client's GET
// /likes/check, POST /likes/toggle, GET /likes/count, and POST /assembly/like, on one table and one
// writer. The target's rules come from its facts (targets.ts): readable as an assembly is (a codex
// entry always is), not your own, likes not switched off by a creator.
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { likes } from '../../../db/schema';
import { transactionBatch } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertReadable, type TPasswordGuesses } from './access';
import type { TAssemblyCaches } from './item';
import { findTarget, targetEntry, type TTarget, type TTargetKey, type TTargetType } from './targets';

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

/** What a like's transaction found and did (the state: TTargetEntry.likeState). */
interface TLikeWrite {
  state: 'on' | 'off' | 'check' | null;
  liked: boolean | undefined;
  likeCount: number;
}

/**
 * A like's transaction, as one batch of statements (one round trip on a libSQL server): the target's
 * state, the insert and the delete whose conditions say the rule in SQL (only on a target that is
 * there, a new like only where likes are on; a toggle inserts when there is no like of yours, and
 * deletes when its insert did nothing: `changes()`), the count, and the count kept on the target. `liked` is
 * undefined when nothing could be written (the state tells why).
 */
async function writeLike(
  db: TDb,
  target: TTargetKey,
  state: SQL,
  input: { userId: string; like: boolean | 'toggle'; now: Date },
): Promise<TLikeWrite> {
  const { userId, like } = input;
  const toggle = like === 'toggle';
  const mineSql = sql`${likes.targetType} = ${target.type} and ${likes.targetId} = ${target.id} and ${likes.userId} = ${userId}`;
  const stored = targetEntry(target.type).likesCounted;
  const [found, inserted, deleted, counted] = await transactionBatch(db, (tx) => [
    tx.all<{ state: TLikeWrite['state'] }>(sql`select ${state} as state`),
    tx.all<{ userId: string }>(sql`insert into ${likes} (target_type, target_id, user_id, created_at)
      select ${target.type}, ${target.id}, ${userId}, ${input.now.getTime()} where ${state} = 'on'
      ${like === false ? sql`and 0` : toggle ? sql`and not exists (select 1 from ${likes} where ${mineSql})` : sql``}
      on conflict do nothing returning user_id`),
    tx.all<{ userId: string }>(sql`delete from ${likes} where ${mineSql} and ${state} in ('on', 'off')
      ${like === true ? sql`and 0` : toggle ? sql`and changes() = 0` : sql``} returning user_id`),
    countLikes(tx, target),
    ...(stored ? [stored(tx, target)] : []),
  ]);
  const liked = inserted.length > 0 ? true : deleted.length > 0 ? false : like === 'toggle' ? undefined : like;
  return { state: found[0]?.state ?? null, liked, likeCount: counted[0]?.n ?? 0 };
}

/**
 * The one writer of likes (POST /likes/toggle, POST /assembly/like): `like` true or false sets the
 * caller's like, 'toggle' flips it. One transaction reads the target's state and writes by it
 * (writeLike), so concurrent toggles by one user each see the previous one's result, the count stays
 * the number of rows, and a like cannot slip past a concurrent switch of the setting or the trash.
 * A target anyone may read takes that one transaction alone; otherwise (private, your own, a type of
 * several kinds) the read rule runs first (404, 403, a password), then the transaction. Your own
 * target is a 403; likes switched off by its creator make a new like a 403 (data.key
 * assembly.likesDisabled), while taking yours back works.
 */
export async function setLike(
  deps: TDepsOf<'db' | 'now'> & TAssemblyCaches,
  input: TLikeInput & { userId: string; like: boolean | 'toggle' },
): Promise<{ target: TTargetKey; liked: boolean; likeCount: number }> {
  const { db } = deps;
  const write = { userId: input.userId, like: input.like, now: deps.now() };
  const entry = targetEntry(input.targetType);
  let target: TTargetKey = { type: input.targetType, id: entry.id.parse(input.targetId) };
  const open = entry.likeState(target.id, input.userId);
  let outcome = open && (await writeLike(db, target, open, write));
  if (!outcome || outcome.state === 'check') {
    const found = await likeableTarget(db, { ...input, viewerId: input.userId }, (checked) => {
      if (checked.creatorId === input.userId)
        throw new AppError('FORBIDDEN', `You cannot like or rate your own ${entry.noun}`);
    });
    target = { type: found.type, id: found.id };
    outcome = await writeLike(db, target, targetEntry(target.type).likeState(target.id)!, write);
  }
  if (outcome.state === null) throw notFound(input.targetType, input.targetId);
  if (outcome.liked === undefined || (outcome.liked && outcome.state === 'off'))
    throw new AppError('FORBIDDEN', `Likes are switched off for ${entry.noun} ${target.id} by its creator`, {
      key: 'assembly.likesDisabled',
    });
  await targetEntry(target.type).likesChanged?.(deps, target);
  return { target, liked: outcome.liked, likeCount: outcome.likeCount };
}
