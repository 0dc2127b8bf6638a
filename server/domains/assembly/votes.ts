// Likes and ratings of an assembly by its readers (not its creator); the formula is rating.ts's.
import { count, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies, assemblyRatings } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
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

export async function rateAssembly(
  deps: TVoteDeps,
  input: { userId: string; uuid: string; score: number; password?: string; guesses?: TPasswordGuesses },
): Promise<{ uuid: string; yourScore: number; rating: ReturnType<typeof ratingOf> }> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid, score } = input;
  const row = await findVotable(db, uuid, userId, input.password, input.guesses);
  const totals = await transaction(db, async (tx) => {
    await tx
      .insert(assemblyRatings)
      .values({ assemblyId: row.id, userId, score, updatedAt: now })
      .onConflictDoUpdate({
        target: [assemblyRatings.assemblyId, assemblyRatings.userId],
        set: { score, updatedAt: now },
      });
    const agg = await tx
      .select({ n: count(), sum: sql<number>`coalesce(sum(${assemblyRatings.score}), 0)` })
      .from(assemblyRatings)
      .where(eq(assemblyRatings.assemblyId, row.id))
      .get();
    const n = agg?.n ?? 0;
    const sum = Number(agg?.sum ?? 0);
    await tx.update(assemblies).set({ ratingSum: sum, ratingCount: n }).where(eq(assemblies.id, row.id));
    return { sum, n };
  });
  await invalidateAssembly(deps, { uuid });
  return { uuid, yourScore: score, rating: ratingOf(totals.sum, totals.n) };
}
