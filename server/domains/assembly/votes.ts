// Likes and ratings of an assembly by its readers (not its creator); the formula is rating.ts's.
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies, assemblyRatings } from '../../../db/schema';
import { transactionBatch } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertReadable, type TPasswordGuesses } from './access';
import { invalidateAssembly, type TAssemblyCaches } from './item';
import { setLike } from './likes';
import { findActive, type TRow } from './queries';
import { ratingOf } from './rating';

type TVoteDeps = TDepsOf<'db' | 'now'> & TAssemblyCaches;

/** Ratings: anyone who can read the assembly, except its creator. */
async function findVotable(
  db: TDb,
  uuid: string,
  userId: string,
  password: string | undefined,
  guesses: TPasswordGuesses | undefined,
): Promise<TRow> {
  const row = await findActive(db, uuid);
  if (row.creatorId === userId) throw new AppError('FORBIDDEN', 'You cannot like or rate your own assembly');
  await assertReadable(uuid, row, userId, password, guesses);
  return row;
}

/**
 * POST /assembly/like: the caller's like of an assembly, set (true) or taken back (false), through the
 * one writer of likes (likes.ts setLike: your own is a 403, likes switched off by the creator make a
 * new like a 403 with data.key assembly.likesDisabled).
 */
export async function likeAssembly(
  deps: TVoteDeps,
  input: { userId: string; uuid: string; like: boolean | 'toggle'; password?: string; guesses?: TPasswordGuesses },
): Promise<{ uuid: string; liked: boolean; likes: number }> {
  const result = await setLike(deps, { ...input, targetType: 'assembly', targetId: input.uuid });
  return { uuid: result.target.id, liked: result.liked, likes: result.likeCount };
}

/**
 * POST /assembly/rate: the caller's score of an assembly it may read, set or changed. One transaction
 * batch (one round trip on a libSQL server): the score, written only while the assembly is out of the
 * trash (a trashing since the read rule ran makes it a 404), and the totals recounted on the row,
 * `RETURNING` them.
 */
export async function rateAssembly(
  deps: TVoteDeps,
  input: { userId: string; uuid: string; score: number; password?: string; guesses?: TPasswordGuesses },
): Promise<{ uuid: string; yourScore: number; rating: ReturnType<typeof ratingOf> }> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid, score } = input;
  const row = await findVotable(db, uuid, userId, input.password, input.guesses);
  const ofAssembly = eq(assemblyRatings.assemblyId, row.id);
  const [written, [totals]] = await transactionBatch(db, (tx) => [
    tx.all<{ userId: string }>(sql`insert into ${assemblyRatings} (assembly_id, user_id, score, updated_at)
      select ${row.id}, ${userId}, ${score}, ${now.getTime()}
      where exists (select 1 from ${assemblies} where ${assemblies.id} = ${row.id} and ${assemblies.deletedAt} is null)
      on conflict (assembly_id, user_id) do update set score = excluded.score, updated_at = excluded.updated_at
      returning user_id`),
    tx
      .update(assemblies)
      .set({
        ratingSum: sql`(select coalesce(sum(${assemblyRatings.score}), 0) from ${assemblyRatings} where ${ofAssembly})`,
        ratingCount: sql`(select count(*) from ${assemblyRatings} where ${ofAssembly})`,
      })
      .where(eq(assemblies.id, row.id))
      .returning({ sum: assemblies.ratingSum, n: assemblies.ratingCount }),
  ]);
  if (written.length === 0) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
  await invalidateAssembly(deps, { uuid });
  return { uuid, yourScore: score, rating: ratingOf(totals?.sum ?? 0, totals?.n ?? 0) };
}
