// An assembly's life as its creator sees it: publish, edit, trash, restore, the trash listing, and the
// purge of what has been in the trash for 30 days.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { etagListMatches } from '../../etag';
import { hashPassword } from '../../infra/password';
import { pageWindow, type TPagination } from '../../schemas';
import { assertCreator, assertPasswordFits } from './access';
import { releaseForks } from './forks';
import { invalidateAssembly, type TAssemblyCaches } from './item';
import { assertValidLoadout } from './loadout';
import type { TLoadout } from './fields';
import type { TClientExtras } from './fields';
import {
  clientOf,
  findActive,
  findRowIn,
  itemEtag,
  loadoutOf,
  rowsOf,
  selectRows,
  toSummary,
  toView,
  type TRow,
} from './queries';
import type { TAssemblyDraft, TAssemblyPatch, TAssemblyView, TTrashedAssembly } from './schemas';

export const TRASH_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

type TWriteDeps = TDepsOf<'db' | 'now'> & TAssemblyCaches;

function normaliseTags(tags: string[] | undefined): string[] {
  const seen = new Set<string>();
  for (const tag of tags ?? []) {
    const clean = tag.trim().toLowerCase();
    if (clean) seen.add(clean);
  }
  return [...seen];
}

export async function publishAssembly(
  deps: TWriteDeps,
  input: { creatorId: string; draft: TAssemblyDraft },
): Promise<TAssemblyView & { 'assembly.uuid': string }> {
  const { db } = deps;
  const now = deps.now();
  const { creatorId, draft } = input;
  const isPublic = draft.isPublic ?? true;
  assertPasswordFits(isPublic, draft.password);
  const loadout: TLoadout = {
    shipId: draft.shipId,
    weapons: draft.weapons,
    armor: draft.armor ?? null,
    furnitures: draft.furnitures ?? [],
  };
  await assertValidLoadout(db, loadout);
  // Hashing is slow and must stay outside any transaction.
  const passwordHash = !isPublic && draft.password ? await hashPassword(draft.password) : null;
  const uuid = randomUUID();
  await db.insert(assemblies).values({
    uuid,
    creatorId,
    name: draft.name.trim(),
    shipId: loadout.shipId,
    weapons: JSON.stringify(loadout.weapons),
    armor: loadout.armor,
    furnitures: JSON.stringify(loadout.furnitures),
    description: draft.description ?? '',
    tags: JSON.stringify(normaliseTags(draft.tags)),
    client: JSON.stringify(draft.client ?? {}),
    isPublic,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await invalidateAssembly(deps, { uuid });
  return { ...toView(await findActive(db, uuid), creatorId), 'assembly.uuid': uuid };
}

/**
 * The web client's extras after an edit: each part the patch gives replaces the stored one; the
 * client's loadout form is dropped when the loadout changes without it (the contract's form), so it
 * never disagrees with the loadout columns.
 */
function mergedClient(row: TRow, patch: TAssemblyPatch): TClientExtras {
  const merged: TClientExtras = { ...clientOf(row), ...patch.client };
  const { settings } = patch;
  if (settings?.attr !== undefined) merged.attr = settings.attr;
  if (settings?.wheel !== undefined) merged.wheel = { ...merged.wheel, attr: settings.wheel };
  if (settings?.warehouse !== undefined) merged.warehouse = { ...merged.warehouse, attr: settings.warehouse };
  const loadoutChanged =
    patch.shipId !== undefined ||
    patch.weapons !== undefined ||
    patch.armor !== undefined ||
    patch.furnitures !== undefined;
  if (loadoutChanged && patch.client?.data === undefined) delete merged.data;
  return merged;
}

function mergedLoadout(row: TRow, patch: TAssemblyPatch): TLoadout {
  const current = loadoutOf(row);
  return {
    shipId: patch.shipId ?? current.shipId,
    weapons: patch.weapons ?? current.weapons,
    armor: patch.armor === undefined ? current.armor : patch.armor,
    furnitures: patch.furnitures ?? current.furnitures,
  };
}

/**
 * What an edit requires of the assembly as it is: the creator's, the client's precondition (If-Match)
 * still true, a password only on what stays private, and a loadout that fits the hull once merged.
 */
async function assertEditable(
  db: TDb,
  row: TRow,
  userId: string,
  patch: TAssemblyPatch,
  ifMatch: string | undefined,
): Promise<void> {
  assertCreator(row, userId, 'edit');
  if (ifMatch !== undefined && !etagListMatches(ifMatch, itemEtag(toView(row)))) {
    throw new AppError(
      'PRECONDITION_FAILED',
      `Assembly ${row.uuid} has changed since the ETag given in If-Match: read it again and retry`,
    );
  }
  assertPasswordFits(patch.isPublic ?? row.isPublic, patch.password);
  await assertValidLoadout(db, mergedLoadout(row, patch), 'data.');
}

/**
 * Writes the fields the patch sets, and only those, so that concurrent edits of different fields
 * all land (a rename during a password change's hashing used to be overwritten by the values the
 * slower edit had read before it). The checks run first on the current row, so a refused edit spends
 * no hashing, then again inside the write's transaction on the row as it is by then: a concurrent
 * edit may have changed the owner's precondition (412), made the assembly public (a password no
 * longer fits: 400) or changed the hull (the merged loadout must fit again). `ifMatch` is the
 * If-Match list (`*` or ETags of GET /assembly/item). Returns the new view (its ETag is itemEtag's).
 */
export async function editAssembly(
  deps: TWriteDeps,
  input: { userId: string; uuid: string; patch: TAssemblyPatch; ifMatch?: string },
): Promise<TAssemblyView> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid, patch, ifMatch } = input;
  await assertEditable(db, await findActive(db, uuid), userId, patch, ifMatch);
  // Hashing is slow and must stay outside any transaction.
  const passwordHash = typeof patch.password === 'string' ? await hashPassword(patch.password) : undefined;
  const view = await transaction(db, async (tx) => {
    const row = await findRowIn(tx, uuid);
    // Trashed while the password was hashed.
    if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
    await assertEditable(tx, row, userId, patch, ifMatch);
    const changes: Partial<typeof assemblies.$inferInsert> = { updatedAt: now };
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.shipId !== undefined) changes.shipId = patch.shipId;
    if (patch.weapons !== undefined) changes.weapons = JSON.stringify(patch.weapons);
    if (patch.armor !== undefined) changes.armor = patch.armor;
    if (patch.furnitures !== undefined) changes.furnitures = JSON.stringify(patch.furnitures);
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.tags !== undefined) changes.tags = JSON.stringify(normaliseTags(patch.tags));
    if (patch.isPublic !== undefined) changes.isPublic = patch.isPublic;
    const client = JSON.stringify(mergedClient(row, patch));
    if (client !== row.client) changes.client = client;
    // Making an assembly public drops its password; null removes it.
    if (patch.isPublic === true || patch.password === null) changes.passwordHash = null;
    else if (passwordHash !== undefined) changes.passwordHash = passwordHash;
    await tx.update(assemblies).set(changes).where(eq(assemblies.id, row.id));
    return toView((await findRowIn(tx, uuid))!, userId);
  });
  await invalidateAssembly(deps, { uuid });
  return view;
}

export async function trashAssembly(
  deps: TWriteDeps,
  input: { userId: string; uuid: string },
): Promise<{ uuid: string; deletedAt: string; purgeAt: string }> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid } = input;
  const row = await findActive(db, uuid);
  assertCreator(row, userId, 'delete');
  await db
    .update(assemblies)
    .set({ deletedAt: now })
    .where(and(eq(assemblies.id, row.id), isNull(assemblies.deletedAt)));
  await invalidateAssembly(deps, { uuid });
  return { uuid, deletedAt: now.toISOString(), purgeAt: new Date(now.getTime() + TRASH_RETENTION_MS).toISOString() };
}

/**
 * Restores from the caller's own trash only. Someone else's trashed assembly answers the same 404 as
 * one that does not exist (edit, delete and item say 404 too): a 403 would reveal that it exists.
 * One conditional statement, so a concurrent restore or purge cannot slip between check and write.
 */
export async function restoreAssembly(
  deps: TWriteDeps,
  input: { userId: string; uuid: string },
): Promise<TAssemblyView> {
  const { db } = deps;
  const now = deps.now();
  const { userId, uuid } = input;
  const restored = await db
    .update(assemblies)
    .set({ deletedAt: null, updatedAt: now })
    .where(and(eq(assemblies.uuid, uuid), eq(assemblies.creatorId, userId), isNotNull(assemblies.deletedAt)))
    .returning({ id: assemblies.id });
  if (restored.length === 0) throw new AppError('NOT_FOUND', `Assembly ${uuid} is not in the trash`);
  await invalidateAssembly(deps, { uuid });
  return toView(await findActive(db, uuid), userId);
}

export async function listTrash(
  deps: TDepsOf<'db'>,
  input: { userId: string; page: number; pageSize: number },
): Promise<{ data: TTrashedAssembly[]; pagination: TPagination }> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const where = and(eq(assemblies.creatorId, input.userId), isNotNull(assemblies.deletedAt));
  const total = (await db.select({ n: count() }).from(assemblies).where(where).get())?.n ?? 0;
  const rows = rowsOf(
    await selectRows(db)
      .where(where)
      .orderBy(desc(assemblies.deletedAt), desc(assemblies.id))
      .limit(window.limit)
      .offset(window.offset)
      .values(),
  );
  return {
    data: rows.map((row) => ({
      ...toSummary(row),
      deletedAt: row.deletedAt!.toISOString(),
      purgeAt: new Date(row.deletedAt!.getTime() + TRASH_RETENTION_MS).toISOString(),
    })),
    pagination: window.describe(total),
  };
}

/**
 * Hard-deletes assemblies trashed more than 30 days ago (likes and ratings go with them), in one
 * transaction with the fork bookkeeping (forks.ts: the parents' fork_count, the originals' credit).
 * Without `caches` (the CLI, another process) nothing is invalidated here: the entries expire with their TTL.
 */
export async function purgeTrash(
  deps: TDepsOf<'db' | 'now'> & Partial<TAssemblyCaches>,
): Promise<{ purged: number; uuids: string[] }> {
  const { db, caches } = deps;
  const cutoff = new Date(deps.now().getTime() - TRASH_RETENTION_MS);
  const { removed, changed } = await transaction(db, async (tx) => {
    const changed = await releaseForks(tx, cutoff);
    const removed = await tx
      .delete(assemblies)
      .where(and(isNotNull(assemblies.deletedAt), lt(assemblies.deletedAt, cutoff)))
      .returning({ uuid: assemblies.uuid });
    return { removed, changed };
  });
  if (caches)
    for (const uuid of new Set([...removed.map((row) => row.uuid), ...changed]))
      await invalidateAssembly({ caches }, { uuid });
  return { purged: removed.length, uuids: removed.map((row) => row.uuid) };
}
