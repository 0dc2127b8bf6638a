// Likes and ratings of an assembly by its readers (not its creator); the formula is rating.ts's.
import { and, count, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies, assemblyLikes, assemblyRatings } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertReadable, type TPasswordGuesses } from './access';
import { invalidateAssembly, type TAssemblyCaches } from './item';
import { clientOf, findActive, type TRow } from './queries';
import { ratingOf } from './rating';

type TVoteDeps = TDepsOf<'db' | 'now'> & TAssemblyCaches;

/** Likes and ratings: anyone who can read the assembly, except its creator. */
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
 * The creator's display setting `attr.isLike: false` (the web client's settings panel, "Enable
 * likes"; Detail.vue then hides the like button) switches likes off: a new like is a 403 with
 * data.key `assembly.likesDisabled`. Taking a like back stays possible, and existing likes stay
 * counted. Absent (the contract's form has no attr) means on.
 */
async function assertLikesOn(tx: TDb, id: number, uuid: string): Promise<void> {
  const current = await tx.select({ client: assemblies.client }).from(assemblies).where(eq(assemblies.id, id)).get();
  if (current && clientOf(current).attr?.isLike === false) {
    throw new AppError('FORBIDDEN', `Likes are switched off for assembly ${uuid} by its creator`, {
      key: 'assembly.likesDisabled',
    });
  }
}

/**
 * The one writer of likes (POST /assembly/like and POST /likes/toggle): `like` true or false sets the
 * caller's like, 'toggle' flips it. The flip reads and writes inside one transaction, so concurrent
 * toggles by one user each see the previous one's result and the count stays the number of rows.
 */
export async function likeAssembly(
  deps: TVoteDeps,
  input: { userId: string; uuid: string; like: boolean | 'toggle'; password?: string; guesses?: TPasswordGuesses },
): Promise<{ uuid: string; liked: boolean; likes: number }> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid } = input;
  const row = await findVotable(db, uuid, userId, input.password, input.guesses);
  const mine = and(eq(assemblyLikes.assemblyId, row.id), eq(assemblyLikes.userId, userId));
  const { liked, likes } = await transaction(db, async (tx) => {
    const liked =
      input.like === 'toggle'
        ? (await tx.select({ userId: assemblyLikes.userId }).from(assemblyLikes).where(mine).get()) === undefined
        : input.like;
    if (liked) {
      // Read in the transaction, so a like cannot slip past a concurrent switch of the setting.
      await assertLikesOn(tx, row.id, uuid);
      await tx.insert(assemblyLikes).values({ assemblyId: row.id, userId, createdAt: now }).onConflictDoNothing();
    } else {
      await tx.delete(assemblyLikes).where(mine);
    }
    const n =
      (await tx.select({ n: count() }).from(assemblyLikes).where(eq(assemblyLikes.assemblyId, row.id)).get())?.n ?? 0;
    await tx.update(assemblies).set({ likes: n }).where(eq(assemblies.id, row.id));
    return { liked, likes: n };
  });
  await invalidateAssembly(deps, { uuid });
  return { uuid, liked, likes };
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
