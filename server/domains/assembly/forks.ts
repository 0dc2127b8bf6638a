// Forks (issue 19): a copy of a readable assembly owned by the caller, crediting the original
// (`cloned_from_id`, answered as `cloningUuid`), and the original's `fork_count`.
//
// The rules, kept by the two writers below (the fork, and the purge of the trash) in their transactions:
// - fork_count is the number of assemblies forked from this one by other users that are not purged:
//   a trashed fork still counts (it may be restored within 30 days), its purge takes it off. A fork
//   of your own assembly is allowed and credited, but not counted (a creator cannot inflate it, as
//   they cannot like their own). A fork of a fork credits and counts for its direct parent only.
// - The credit stays while the original exists, in the trash too; purging the original clears it
//   (ON DELETE SET NULL) and drops its forks' cached items.
import { randomUUID } from 'node:crypto';
import { and, count, eq, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { assemblies } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { jsonProblem, MAX_JSON_DEPTH } from '../../schemas';
import { assertReadable, type TPasswordGuesses } from './access';
import { invalidateAssembly, type TAssemblyCaches } from './item';
import { clientOf, findActive, findRowIn, toView, type TRow } from './queries';
import type { TAssemblyView } from './schemas';

type TForkDeps = TDepsOf<'db' | 'now' | 'limits'> & TAssemblyCaches;

/**
 * Read access to the original as it is inside the transaction: the access checked before it (with
 * the password hashed outside) must still hold. Made private, or given another password, meanwhile: 403.
 */
function assertStillReadable(checked: TRow, row: TRow, userId: string): void {
  if (row.isPublic || row.creatorId === userId) return;
  if (checked.isPublic || row.passwordHash === null || row.passwordHash !== checked.passwordHash) {
    throw new AppError('FORBIDDEN', 'This assembly became private while it was being forked: read it again');
  }
}

/** The web client's parts sit two levels down in `client` (`data.weaponModifications`, `wheel.data`). */
const CLIENT_DEPTH = MAX_JSON_DEPTH + 2;

/**
 * A fork is a new write: its copy of the web client's JSON must pass today's input rule. An assembly
 * stored before that rule may hold JSON nested thousands of levels deep; copying it would store it
 * again, and every reader's serialiser recurses on it. Refused before anything is written (409).
 */
function assertCopyable(row: TRow): void {
  if (jsonProblem(clientOf(row), CLIENT_DEPTH) !== undefined) {
    throw new AppError(
      'CONFLICT',
      `This assembly holds web client JSON nested deeper than ${MAX_JSON_DEPTH} levels (stored before that limit): its creator must edit it before it can be forked`,
    );
  }
}

/**
 * POST /assembly/fork: a new assembly of the caller with the original's content as it is (name,
 * loadout, description, tags and the web client's parts, display settings included; no likes,
 * ratings or views), the same visibility, never a password: a private original gives a private fork
 * that only its new creator reads. Anyone who can read the original may fork it (404 unknown or
 * trashed, 403 not readable); each fork counts against `limits.fork` (429), given back when it is
 * not made. The fork and the original's count are written in one transaction, so N concurrent forks
 * add exactly N.
 */
export async function forkAssembly(
  deps: TForkDeps,
  input: { userId: string; uuid: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TAssemblyView & { 'assembly.uuid': string }> {
  const { db, limits } = deps;
  const now = deps.now();
  const { userId, uuid } = input;
  const checked = await findActive(db, uuid);
  await assertReadable(uuid, checked, userId, input.password, input.guesses);
  await limits.fork.hit(userId);
  const forkUuid = randomUUID();
  try {
    await transaction(db, async (tx) => {
      const row = await findRowIn(tx, uuid);
      // Trashed (or purged) since it was checked.
      if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
      assertStillReadable(checked, row, userId);
      assertCopyable(row);
      await tx.insert(assemblies).values({
        uuid: forkUuid,
        creatorId: userId,
        name: row.name,
        shipId: row.shipId,
        weapons: row.weapons,
        armor: row.armor,
        furnitures: row.furnitures,
        description: row.description,
        tags: row.tags,
        client: row.client,
        isPublic: row.isPublic,
        passwordHash: null,
        clonedFromId: row.id,
        createdAt: now,
        updatedAt: now,
      });
      if (row.creatorId !== userId) {
        await tx
          .update(assemblies)
          .set({ forkCount: sql`${assemblies.forkCount} + 1` })
          .where(eq(assemblies.id, row.id));
      }
    });
  } catch (error) {
    await limits.fork.reward(userId);
    throw error;
  }
  // The original's fork_count changed; the lists show both.
  await invalidateAssembly(deps, { uuid });
  return { ...toView(await findActive(db, forkUuid), userId), 'assembly.uuid': forkUuid };
}

/**
 * The fork bookkeeping of a purge, inside its transaction, before the rows matching `expired` (a
 * condition on `assemblies`) are deleted: each parent of a purged fork counted in its fork_count
 * loses it. Returns the uuids whose cached items change: those parents, and the forks of purged
 * originals (their credit is cleared by ON DELETE SET NULL).
 */
export async function releaseForks(tx: TDb, cutoff: Date): Promise<string[]> {
  const parent = alias(assemblies, 'parent');
  const expired = (table: typeof assemblies | typeof parent) =>
    and(isNotNull(table.deletedAt), lt(table.deletedAt, cutoff));
  const counted = await tx
    .select({ id: parent.id, uuid: parent.uuid, n: count() })
    .from(assemblies)
    .innerJoin(parent, eq(parent.id, assemblies.clonedFromId))
    .where(and(expired(assemblies), ne(assemblies.creatorId, parent.creatorId)))
    .groupBy(parent.id)
    .all();
  for (const { id, n } of counted) {
    await tx
      .update(assemblies)
      .set({ forkCount: sql`max(${assemblies.forkCount} - ${n}, 0)` })
      .where(eq(assemblies.id, id));
  }
  const orphaned = await tx
    .select({ uuid: assemblies.uuid })
    .from(assemblies)
    .innerJoin(parent, eq(parent.id, assemblies.clonedFromId))
    .where(expired(parent))
    .all();
  return [...counted.map((row) => row.uuid), ...orphaned.map((row) => row.uuid)];
}
