// One assembly read by uuid (its view through the `item` cache, its computed attributes), and the
// invalidation every assembly write makes.
import type { TDepsOf, TServiceDeps } from '../../deps';
import { AppError } from '../../errors';
import { assertReadable, type TPasswordGuesses } from './access';
import { isLikedBy } from './like-reads';
import { computeAttributes, resolveLoadout } from './loadout';
import { clientOf, findActive, loadoutOf, toView } from './queries';
import type { z } from 'zod';
import type { TAssemblyItem, TAssemblyView, TAttributes, ZAttributes } from './schemas';

/** The cache scopes assembly services use (named scopes of server/infra/cache/index.ts). */
export type TAssemblyCaches<K extends 'item' | 'list' = 'item' | 'list'> = { caches: Pick<TServiceDeps['caches'], K> };

/** Every write calls this: the item (when known) and every cached list page are dropped. */
export async function invalidateAssembly(deps: TAssemblyCaches, input: { uuid?: string }): Promise<void> {
  await Promise.all([
    input.uuid ? deps.caches.item.invalidate(input.uuid) : undefined,
    deps.caches.list.invalidateAll(),
  ]);
}

interface TCachedItem {
  view: TAssemblyView;
  isPublic: boolean;
  creatorId: string;
  passwordHash: string | null;
}

/**
 * One assembly, through the `item` cache unless `force`. Access is checked on every read (the cached
 * entry keeps the password hash, never sent out). A read by anyone but the creator counts a view,
 * cache hit or not, in `views` (written to the database in batches); the item's ETag (itemEtag)
 * leaves the view counter out so revalidation still works.
 */
export async function getAssembly(
  deps: TDepsOf<'db' | 'views'> & TAssemblyCaches<'item'>,
  input: { uuid: string; viewerId?: string; password?: string; force?: boolean; guesses?: TPasswordGuesses },
): Promise<TAssemblyItem> {
  const { db, views, caches } = deps;
  const { uuid } = input;
  let entry = input.force ? undefined : caches.item.get<TCachedItem>(uuid);
  if (!entry) {
    const row = await findActive(db, uuid);
    entry = { view: toView(row), isPublic: row.isPublic, creatorId: row.creatorId, passwordHash: row.passwordHash };
    caches.item.set(uuid, entry);
    views.learn(uuid, row.id, row.views);
  }
  // A private assembly with a password, read without it: a 200 without content, so that the web
  // client shows its password prompt (issue 18). No guess is spent and no view counted; a wrong
  // password stays a 403 (assertReadable).
  if (!entry.isPublic && entry.creatorId !== input.viewerId && entry.passwordHash !== null && !input.password) {
    return { uuid, isVisibility: false, isPassword: true, isOwner: false };
  }
  await assertReadable(uuid, entry, input.viewerId, input.password, input.guesses);
  // Asked only now: a flush during the password check may have written and forgotten the count.
  let current = views.current(uuid);
  if (current === undefined) {
    const stored = await views.readStored(db, uuid);
    if (stored === undefined) {
      // Trashed or purged since it was cached.
      await caches.item.invalidate(uuid);
      throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
    }
    current = views.learn(uuid, stored.id, stored.views);
  }
  if (input.viewerId !== entry.creatorId) current = views.record(uuid);
  // The caller's own like, after the shared cache: never part of the cached view. A creator cannot
  // like their own assembly, so only other signed-in readers are asked.
  const isOwner = input.viewerId !== undefined && input.viewerId === entry.creatorId;
  const isLiked = isOwner ? false : await isLikedBy(db, input.viewerId, uuid);
  return { ...entry.view, views: current, isOwner, isLiked };
}

type TAssemblySettings = z.infer<typeof ZAttributes>['data'];

/**
 * GET /assembly/attr: the figures of the loadout against the catalog as it is now (problems included),
 * and under `data` the web client's settings of the assembly (never its password).
 */
export async function getAttributes(
  deps: TDepsOf<'db'>,
  input: { uuid: string; viewerId?: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TAttributes & { uuid: string; shipId: string; data: TAssemblySettings }> {
  const { db } = deps;
  const { uuid } = input;
  const row = await findActive(db, uuid);
  await assertReadable(uuid, row, input.viewerId, input.password, input.guesses);
  const loadout = loadoutOf(row);
  const client = clientOf(row);
  const data: TAssemblySettings = {
    assembly: { visibility: row.isPublic ? 'publicly' : 'private', attr: { ...client.attr, password: '' } },
    wheel: { attr: client.wheel?.attr ?? {} },
    warehouse: { attr: client.warehouse?.attr ?? {} },
    password: row.passwordHash !== null,
  };
  return { uuid, shipId: row.shipId, ...computeAttributes(loadout, await resolveLoadout(db, loadout)), data };
}
