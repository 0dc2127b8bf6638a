import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { assemblies, assemblyLikes, assemblyListableCounts, assemblyRatings, catalogHulls, RATING_PRIOR_COUNT, RATING_PRIOR_MEAN, users } from '../../../db/schema';
import { unionAll } from 'drizzle-orm/sqlite-core';
import { transaction } from '../../../db/transaction';
import { AppError } from '../../errors';
import { etagListMatches, weakEtag } from '../../etag';
import { pageWindow, type TPagination } from '../../schemas';
import { assertValidLoadout, computeAttributes, resolveLoadout, type TAttributes, type TLoadout, type TWeaponEntry } from './loadout';
import { hashPassword, verifySharedSecret } from '../../infra/password';
import type { TReadCache } from '../../infra/cache/read-cache';
import type { ViewCounter } from '../../infra/view-counter';

export const TRASH_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Bayesian smoothing of ratings, defined with sort=rating's generated column (db/schema/assembly.ts). */
export { RATING_PRIOR_COUNT, RATING_PRIOR_MEAN };

export interface TAssemblyView {
  uuid: string;
  name: string;
  shipId: string;
  ship: { id: string; size: string | null; archetype: string | null } | null;
  weapons: TWeaponEntry[];
  armor: string | null;
  furnitures: string[];
  description: string;
  tags: string[];
  isPublic: boolean;
  hasPassword: boolean;
  creator: { id: string; username: string };
  likes: number;
  views: number;
  rating: { average: number | null; count: number; smoothed: number };
  createdAt: string;
  updatedAt: string;
}

export type TAssemblySummary = Omit<TAssemblyView, 'weapons' | 'armor' | 'furnitures'>;

export interface TTrashedAssembly extends TAssemblySummary {
  deletedAt: string;
  purgeAt: string;
}

export interface TAssemblyDraft {
  name: string;
  shipId: string;
  weapons: TWeaponEntry[];
  armor?: string | null;
  furnitures?: string[];
  description?: string;
  tags?: string[];
  isPublic?: boolean;
  password?: string | null;
}

const ITEM_KEY = (uuid: string) => `assembly:item:${uuid}`;
/** Every cached list page (and, through meta.responseCache, every stored REST answer of /assembly/list). */
export const LIST_PREFIX = 'assembly:list:';
/** Heap size of a cached list page, measured: 15.4 KB for a page of 20 summaries (its JSON is 9.7 KB). */
const LIST_PAGE_HEAP_BYTES = 512;
const SUMMARY_HEAP_BYTES = 750;

/** Every write calls this: the item (when known) and every cached list page are dropped. */
export async function invalidateAssembly(cache: TReadCache, uuid?: string): Promise<void> {
  await Promise.all([uuid ? cache.invalidate(ITEM_KEY(uuid)) : undefined, cache.invalidatePrefix(LIST_PREFIX)]);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function ratingOf(sum: number, n: number) {
  return {
    average: n > 0 ? round2(sum / n) : null,
    count: n,
    smoothed: round2((sum + RATING_PRIOR_MEAN * RATING_PRIOR_COUNT) / (n + RATING_PRIOR_COUNT)),
  };
}

const viewColumns = {
  id: assemblies.id,
  uuid: assemblies.uuid,
  name: assemblies.name,
  shipId: assemblies.shipId,
  weapons: assemblies.weapons,
  armor: assemblies.armor,
  furnitures: assemblies.furnitures,
  description: assemblies.description,
  tags: assemblies.tags,
  isPublic: assemblies.isPublic,
  passwordHash: assemblies.passwordHash,
  creatorId: assemblies.creatorId,
  creatorName: sql<string>`(select ${users.username} from ${users} where ${users.id} = ${assemblies.creatorId})`,
  likes: assemblies.likes,
  views: assemblies.views,
  ratingSum: assemblies.ratingSum,
  ratingCount: assemblies.ratingCount,
  createdAt: assemblies.createdAt,
  updatedAt: assemblies.updatedAt,
  deletedAt: assemblies.deletedAt,
  hullId: sql<string | null>`(select ${catalogHulls.id} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
  hullSize: sql<string | null>`(select ${catalogHulls.size} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
  hullArchetype: sql<string | null>`(select ${catalogHulls.archetype} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
};


/**
 * Rows of `assemblies` with their creator's name and hull as correlated scalar subqueries, not joins:
 * with better-sqlite3 12 (SQLite 3.53) a lookup by uuid joined to users and hulls took ~32 µs against
 * ~10 µs for the same columns through subqueries (bench/README.md, issue 22). Every assembly has its
 * creator (a foreign key, cascading), so the inner join filtered nothing.
 */
function selectRows(db: TDb) {
  return db.select(viewColumns).from(assemblies);
}

type TRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectRows>['get']>>>;

function toSummary(row: TRow): TAssemblySummary {
  return {
    uuid: row.uuid,
    name: row.name,
    shipId: row.shipId,
    ship: row.hullId ? { id: row.hullId, size: row.hullSize, archetype: row.hullArchetype } : null,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    isPublic: row.isPublic,
    hasPassword: row.passwordHash !== null,
    creator: { id: row.creatorId, username: row.creatorName },
    likes: row.likes,
    views: row.views,
    rating: ratingOf(row.ratingSum, row.ratingCount),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toView(row: TRow): TAssemblyView {
  return {
    ...toSummary(row),
    weapons: JSON.parse(row.weapons) as TWeaponEntry[],
    armor: row.armor,
    furnitures: JSON.parse(row.furnitures) as string[],
  };
}

function loadoutOf(row: Pick<TRow, 'shipId' | 'weapons' | 'armor' | 'furnitures'>): TLoadout {
  return {
    shipId: row.shipId,
    weapons: JSON.parse(row.weapons) as TWeaponEntry[],
    armor: row.armor,
    furnitures: JSON.parse(row.furnitures) as string[],
  };
}

async function findRow(db: TDb, uuid: string): Promise<TRow | undefined> {
  return prepared(db, 'assembly.byUuid', (d) => selectRows(d).where(eq(assemblies.uuid, sql.placeholder('uuid'))).prepare()).get({ uuid });
}

/** An assembly that is not in the trash; 404 otherwise (trashed ones do not exist for readers). */
async function findActive(db: TDb, uuid: string): Promise<TRow> {
  const row = await findRow(db, uuid);
  if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
  return row;
}

function assertCreator(row: { creatorId: string }, userId: string, action: string): void {
  if (row.creatorId !== userId) throw new AppError('FORBIDDEN', `Only the creator may ${action} this assembly`);
}

/**
 * Runs a check of a private assembly's password counted beforehand against the caller's limits
 * (a 429 once over them), and resolves with its outcome: see passwordGuesses in
 * server/domains/assembly/password-guesses.ts. Callers without one (the CLI, benches) check unlimited.
 */
export type TPasswordGuesses = (uuid: string, check: () => Promise<boolean>) => Promise<boolean>;

const unlimitedGuesses: TPasswordGuesses = (_uuid, check) => check();

/**
 * Read access of a private assembly: the creator always (never asked for the password); others only
 * with its password (and never when it has none). Public assemblies are open to all.
 */
async function assertReadable(
  uuid: string,
  access: { isPublic: boolean; creatorId: string; passwordHash: string | null },
  viewerId: string | undefined,
  password: string | undefined,
  guesses: TPasswordGuesses = unlimitedGuesses,
): Promise<void> {
  if (access.isPublic || access.creatorId === viewerId) return;
  const passwordHash = access.passwordHash;
  if (passwordHash === null) throw new AppError('FORBIDDEN', 'This assembly is private');
  if (password === undefined || password === '') throw new AppError('FORBIDDEN', 'This assembly is private: a password is required');
  if (!(await guesses(uuid, () => verifySharedSecret(passwordHash, password)))) {
    throw new AppError('FORBIDDEN', 'Wrong password for this private assembly');
  }
}

function normaliseTags(tags: string[] | undefined): string[] {
  const seen = new Set<string>();
  for (const tag of tags ?? []) {
    const clean = tag.trim().toLowerCase();
    if (clean) seen.add(clean);
  }
  return [...seen];
}

function assertPasswordFits(isPublic: boolean, password: string | null | undefined): void {
  if (isPublic && typeof password === 'string') {
    throw new AppError('BAD_REQUEST', 'Invalid input: password: only a private assembly (isPublic: false) can have a password', {
      issues: [{ path: 'password', message: 'only a private assembly (isPublic: false) can have a password' }],
    });
  }
}

export async function publishAssembly(db: TDb, cache: TReadCache, creatorId: string, draft: TAssemblyDraft, now: Date): Promise<TAssemblyView> {
  const isPublic = draft.isPublic ?? true;
  assertPasswordFits(isPublic, draft.password);
  const loadout: TLoadout = { shipId: draft.shipId, weapons: draft.weapons, armor: draft.armor ?? null, furnitures: draft.furnitures ?? [] };
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
    isPublic,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await invalidateAssembly(cache, uuid);
  return toView(await findActive(db, uuid));
}

export type TAssemblyPatch = Partial<TAssemblyDraft>;

/**
 * The item's ETag: of its view without the live `views` counter, so a read (which counts a view) does
 * not change it while any other field of the answer (an edit, a like, a rating) does. GET /assembly/item
 * sends it; an edit's If-Match is compared with it, computed afresh from the row.
 */
export function itemEtag(view: TAssemblyView): string {
  const { views: _views, ...stable } = view;
  return weakEtag(JSON.stringify(stable));
}

/** The row in a transaction: read through its own `tx`, not the prepared statements of the outer database. */
async function findRowIn(tx: TDb, uuid: string): Promise<TRow | undefined> {
  return await selectRows(tx).where(eq(assemblies.uuid, uuid)).get();
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
async function assertEditable(db: TDb, row: TRow, userId: string, patch: TAssemblyPatch, ifMatch: string | undefined): Promise<void> {
  assertCreator(row, userId, 'edit');
  if (ifMatch !== undefined && !etagListMatches(ifMatch, itemEtag(toView(row)))) {
    throw new AppError('PRECONDITION_FAILED', `Assembly ${row.uuid} has changed since the ETag given in If-Match: read it again and retry`);
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
 * If-Match list (`*` or ETags of GET /assembly/item).
 */
export async function editAssembly(
  db: TDb,
  cache: TReadCache,
  userId: string,
  uuid: string,
  patch: TAssemblyPatch,
  now: Date,
  options: { ifMatch?: string } = {},
): Promise<{ view: TAssemblyView; etag: string }> {
  await assertEditable(db, await findActive(db, uuid), userId, patch, options.ifMatch);
  // Hashing is slow and must stay outside any transaction.
  const passwordHash = typeof patch.password === 'string' ? await hashPassword(patch.password) : undefined;
  const result = await transaction(db, async (tx) => {
    const row = await findRowIn(tx, uuid);
    // Trashed while the password was hashed.
    if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
    await assertEditable(tx, row, userId, patch, options.ifMatch);
    const changes: Partial<typeof assemblies.$inferInsert> = { updatedAt: now };
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.shipId !== undefined) changes.shipId = patch.shipId;
    if (patch.weapons !== undefined) changes.weapons = JSON.stringify(patch.weapons);
    if (patch.armor !== undefined) changes.armor = patch.armor;
    if (patch.furnitures !== undefined) changes.furnitures = JSON.stringify(patch.furnitures);
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.tags !== undefined) changes.tags = JSON.stringify(normaliseTags(patch.tags));
    if (patch.isPublic !== undefined) changes.isPublic = patch.isPublic;
    // Making an assembly public drops its password; null removes it.
    if (patch.isPublic === true || patch.password === null) changes.passwordHash = null;
    else if (passwordHash !== undefined) changes.passwordHash = passwordHash;
    await tx.update(assemblies).set(changes).where(eq(assemblies.id, row.id));
    const view = toView((await findRowIn(tx, uuid))!);
    return { view, etag: itemEtag(view) };
  });
  await invalidateAssembly(cache, uuid);
  return result;
}

export async function trashAssembly(db: TDb, cache: TReadCache, userId: string, uuid: string, now: Date): Promise<{ uuid: string; deletedAt: string; purgeAt: string }> {
  const row = await findActive(db, uuid);
  assertCreator(row, userId, 'delete');
  await db.update(assemblies).set({ deletedAt: now }).where(and(eq(assemblies.id, row.id), isNull(assemblies.deletedAt)));
  await invalidateAssembly(cache, uuid);
  return { uuid, deletedAt: now.toISOString(), purgeAt: new Date(now.getTime() + TRASH_RETENTION_MS).toISOString() };
}

/**
 * Restores from the caller's own trash only. Someone else's trashed assembly answers the same 404 as
 * one that does not exist (edit, delete and item say 404 too): a 403 would reveal that it exists.
 * One conditional statement, so a concurrent restore or purge cannot slip between check and write.
 */
export async function restoreAssembly(db: TDb, cache: TReadCache, userId: string, uuid: string, now: Date): Promise<TAssemblyView> {
  const restored = await db
    .update(assemblies)
    .set({ deletedAt: null, updatedAt: now })
    .where(and(eq(assemblies.uuid, uuid), eq(assemblies.creatorId, userId), isNotNull(assemblies.deletedAt)))
    .returning({ id: assemblies.id });
  if (restored.length === 0) throw new AppError('NOT_FOUND', `Assembly ${uuid} is not in the trash`);
  await invalidateAssembly(cache, uuid);
  return toView(await findActive(db, uuid));
}

export async function listTrash(db: TDb, userId: string, page: number, pageSize: number): Promise<{ items: TTrashedAssembly[]; pagination: TPagination }> {
  const window = pageWindow(page, pageSize);
  const where = and(eq(assemblies.creatorId, userId), isNotNull(assemblies.deletedAt));
  const total = (await db.select({ n: count() }).from(assemblies).where(where).get())?.n ?? 0;
  const rows = await selectRows(db).where(where).orderBy(desc(assemblies.deletedAt), desc(assemblies.id)).limit(window.limit).offset(window.offset).all();
  return {
    items: rows.map((row) => ({
      ...toSummary(row),
      deletedAt: row.deletedAt!.toISOString(),
      purgeAt: new Date(row.deletedAt!.getTime() + TRASH_RETENTION_MS).toISOString(),
    })),
    pagination: window.describe(total),
  };
}

/** Hard-deletes assemblies trashed more than 30 days ago (likes and ratings go with them). */
export async function purgeTrash(db: TDb, now: Date, cache?: TReadCache): Promise<{ purged: number; uuids: string[] }> {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  const removed = await db
    .delete(assemblies)
    .where(and(isNotNull(assemblies.deletedAt), lt(assemblies.deletedAt, cutoff)))
    .returning({ uuid: assemblies.uuid });
  if (cache) for (const { uuid } of removed) await invalidateAssembly(cache, uuid);
  return { purged: removed.length, uuids: removed.map((row) => row.uuid) };
}

interface TCachedItem {
  view: TAssemblyView;
  /** Of the view without its live `views` counter: a new view alone does not change it. */
  etag: string;
  isPublic: boolean;
  creatorId: string;
  passwordHash: string | null;
}

/**
 * One assembly, through the read cache unless `force`. Access is checked on every read (the cached
 * entry keeps the password hash, never sent out). A read by anyone but the creator counts a view,
 * cache hit or not, in `views` (written to the database in batches); the returned ETag leaves the
 * view counter out so revalidation still works.
 */
export async function getAssembly(
  db: TDb,
  cache: TReadCache,
  views: ViewCounter,
  uuid: string,
  options: { viewerId?: string; password?: string; force?: boolean; guesses?: TPasswordGuesses },
): Promise<{ view: TAssemblyView; etag: string; isPublic: boolean }> {
  let entry = options.force ? undefined : cache.get<TCachedItem>(ITEM_KEY(uuid));
  if (!entry) {
    const row = await findActive(db, uuid);
    const view = toView(row);
    entry = { view, etag: itemEtag(view), isPublic: row.isPublic, creatorId: row.creatorId, passwordHash: row.passwordHash };
    cache.set(ITEM_KEY(uuid), entry);
    views.learn(uuid, row.views);
  }
  await assertReadable(uuid, entry, options.viewerId, options.password, options.guesses);
  // Asked only now: a flush during the password check may have written and forgotten the count.
  let current = views.current(uuid);
  if (current === undefined) {
    const stored = await views.readStored(db, uuid);
    if (stored === undefined) {
      // Trashed or purged since it was cached.
      await cache.invalidate(ITEM_KEY(uuid));
      throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
    }
    current = views.learn(uuid, stored);
  }
  if (options.viewerId !== entry.creatorId) current = views.record(uuid);
  return { view: { ...entry.view, views: current }, etag: entry.etag, isPublic: entry.isPublic };
}

export async function getAttributes(
  db: TDb,
  uuid: string,
  options: { viewerId?: string; password?: string; guesses?: TPasswordGuesses },
): Promise<TAttributes & { uuid: string; shipId: string }> {
  const row = await findActive(db, uuid);
  await assertReadable(uuid, row, options.viewerId, options.password, options.guesses);
  const loadout = loadoutOf(row);
  return { uuid, shipId: row.shipId, ...computeAttributes(loadout, await resolveLoadout(db, loadout)) };
}

export type TListSort = 'latest' | 'hottest' | 'rating';

export interface TListQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  shipType?: string;
  sort: TListSort;
}

/**
 * An FTS5 query that matches every word of the keyword as a prefix, in the name or a tag (search as
 * you type). Each word is quoted (inner quotes doubled), so operators and punctuation in user input
 * are only ever text; words without a letter or digit cannot match anything and are dropped. Returns
 * null when nothing searchable is left. Prefixes of up to 10 characters have their own FTS5 index
 * (migration 0010), so they are walked newest first and stopped like whole words; a longer one makes
 * FTS5 merge the match lists of the terms it starts (few, for words that long) first.
 */
export function ftsQuery(keyword: string): string | null {
  // Control characters (a NUL above all) end an FTS5 string early and make MATCH fail: treat them as spaces.
  const words = keyword
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 16)
    .map((word) => `"${word.replace(/"/g, '""')}"*`);
  return words.length ? words.join(' ') : null;
}

/**
 * Keyword search pages through at most this many matches, the newest ones (GitHub's search API has
 * the same limit). Walking the FTS5 index newest first and stopping here keeps a search's cost
 * bounded by the cap, not by how many assemblies match; `total` says at most this, `truncated` that
 * there were more.
 */
export const MAX_SEARCH_RESULTS = 1000;

/**
 * A list reaches its first this many results (page × pageSize at most this; Elasticsearch's
 * max_result_window is the same 10,000): a deeper page is a 400 (the list input schema), since its
 * cost grows with its offset. Every order walks an index, so the deepest page reads at most this
 * many index entries plus one page of rows (issue 16).
 */
export const MAX_LIST_WINDOW = 10_000;

/**
 * The assemblies a list shows at all: public and not in the trash (the FTS5 index holds only these).
 * Literal SQL with the constant 1 (not a bound parameter), so that SQLite can prove the partial
 * indexes of db/schema/assembly.ts (WHERE deleted_at IS NULL AND is_public = 1) apply.
 */
function listable(): SQL {
  return sql`${assemblies.deletedAt} is null and ${assemblies.isPublic} = 1`;
}

/** Listable assemblies among the ids of the `ids` placeholder, a JSON array: one statement for any number of ids. */
function listableAmong(): SQL {
  return and(sql`${assemblies.id} in (select value from json_each(${sql.placeholder('ids')}))`, listable())!;
}

/** The hulls of a class (`shipType`: a size or an archetype, any case): a handful of ids from the catalog. */
function hullsOf(db: TDb) {
  return prepared(db, 'assembly.list.hulls', (d) => {
    const shipType = sql.placeholder('shipType');
    return d
      .select({ id: catalogHulls.id })
      .from(catalogHulls)
      .where(sql`lower(${catalogHulls.size}) = lower(${shipType}) or lower(${catalogHulls.archetype}) = lower(${shipType})`)
      .orderBy(catalogHulls.id)
      .prepare();
  });
}

/** How many assemblies are listable, of every hull or of the hulls of the `hulls` placeholder (JSON): a few rows kept by triggers. */
function listableCount(db: TDb, byHulls: boolean) {
  return prepared(db, `assembly.list.count:${byHulls}`, (d) =>
    d
      .select({ n: sql<number>`coalesce(sum(${assemblyListableCounts.n}), 0)` })
      .from(assemblyListableCounts)
      .where(byHulls ? sql`${assemblyListableCounts.shipId} in (select value from json_each(${sql.placeholder('hulls')}))` : undefined)
      .prepare(),
  );
}

/**
 * The key columns of each sort, in order, every one descending; the trailing id breaks ties (newest
 * first). `latest` is newest first by publication: ids are assigned at publish. Each matches an
 * index of db/schema/assembly.ts walked backwards (assemblies_listable, _hot, _rating and their
 * ship_id-led forms).
 */
const SORT_KEYS = {
  latest: [assemblies.id],
  hottest: [assemblies.hotRank, assemblies.id],
  rating: [assemblies.ratingRank, assemblies.ratingCount, assemblies.id],
} as const;

/**
 * The index each sort walks, without and with a shipType. Named (INDEXED BY) rather than left to the
 * planner: measured on the benchmark's database, SQLite 3.53 preferred assemblies_listable and a sort
 * of every listable row (165 ms for a deep page of 100,000) over walking assemblies_hot (0.4 ms),
 * and INDEXED BY makes a plan that cannot use the index an error rather than a full sort.
 */
const SORT_INDEX = {
  latest: ['assemblies_listable', 'assemblies_ship_latest'],
  hottest: ['assemblies_hot', 'assemblies_ship_hot'],
  rating: ['assemblies_rating', 'assemblies_ship_rating'],
} as const;

/** ORDER BY of a sort over its key columns, unqualified: valid in a single select and in a UNION ALL of them. */
function orderOf(sort: TListSort): SQL {
  return sql.raw(SORT_KEYS[sort].map((column) => `${column.name} desc`).join(', '));
}

/**
 * The ids of a page of the list without a keyword. Without a shipType: one walk of the sort's index,
 * `offset + limit` entries. With one: a UNION ALL of one walk per hull of the class (each over its
 * ship_id-led index, already in order), which SQLite merges in order (MERGE (UNION ALL)) and stops
 * after `offset + limit` rows: a rare or empty class costs no more than a common one, where a filter
 * on the whole index would walk every row to find a rare hull's. Prepared per sort and hull count
 * (SQLite takes up to 500 arms; the game has 19 hulls, a class a handful).
 */
function pageIds(db: TDb, sort: TListSort, hullCount: number) {
  return prepared(db, `assembly.list.ids:${sort}:${hullCount}`, (d) => pageIdsQuery(d, sort, hullCount).prepare());
}

/** pageIds' statement, unprepared: test/assembly/list-bounds.test.ts checks its query plan for every sort and hull count. */
export function pageIdsQuery(d: TDb, sort: TListSort, hullCount: number) {
  // Unqualified: the FROM is `assemblies INDEXED BY ...`, which drizzle does not know as its table.
  const keys = Object.fromEntries(SORT_KEYS[sort].map((column) => [column.name, sql<number>`${sql.identifier(column.name)}`]));
  const arm = (hull: number | null) =>
    d
      .select(keys)
      .from(sql`${assemblies} indexed by ${sql.identifier(SORT_INDEX[sort][hull === null ? 0 : 1])}`)
      .where(hull === null ? listable() : and(eq(assemblies.shipId, sql.placeholder(`hull${hull}`)), listable()));
  const [first, second, ...rest] = hullCount === 0 ? [arm(null)] : Array.from({ length: hullCount }, (_, i) => arm(i));
  const query = second ? unionAll(first!, second, ...rest) : first!;
  return query.orderBy(orderOf(sort)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
}

/**
 * The candidates of a keyword search: the ids of the newest `cap` matches as one JSON array, walked
 * in rowid order (newest first) straight off the FTS5 index, which holds only listable assemblies
 * (migration 0006). A shipType is part of the MATCH (searchMatch), so it filters inside FTS5 before
 * the cap, never after, and no row of `assemblies` is read. One string rather than up to 1,001 rows:
 * a fifth less CPU than reading them as rows (bench/README.md).
 */
function searchCandidates(db: TDb) {
  return prepared(db, 'assembly.search.candidates', (d) => {
    const walk = d
      .select({ id: sql<number>`assemblies_fts.rowid`.as('id') })
      .from(sql`assemblies_fts`)
      .where(sql`assemblies_fts match ${sql.placeholder('match')}`)
      .orderBy(sql`assemblies_fts.rowid desc`)
      .limit(sql.placeholder('cap'))
      .as('matches');
    return d.select({ ids: sql<string>`json_group_array(${walk.id} order by ${walk.id} desc)` }).from(walk).prepare();
  });
}

/**
 * The FTS5 query of a search: the keyword's words (ftsQuery) in the name and tags only, and, with a
 * shipType, one of the class's hulls as its hull_token term ('h' and the hex of the id's UTF-8, the
 * generated column of migration 0012). FTS5 intersects the word lists with the hulls' by seeking, so
 * a rare class among many matches costs about its own size, not the keyword's.
 */
export function searchMatch(words: string, hulls: string[] | null): string {
  const inText = `{name tags} : (${words})`;
  if (hulls === null) return inText;
  return `${inText} AND hull_token : (${hulls.map((id) => `"h${Buffer.from(id, 'utf8').toString('hex')}"`).join(' OR ')})`;
}

/**
 * The keyword page in two steps, both over a JSON array of ids (one placeholder, one prepared
 * statement): rank the candidates by a sort reading only the columns it needs, then read the full
 * rows of the page alone (reading every candidate's full row into the sorter cost more than the rank).
 * The `+` keeps SQLite from walking a whole sort index (assemblies_hot, _rating) to avoid sorting at
 * most 1,000 candidates: it must look the candidates up by id and sort those.
 */
function rankAmong(db: TDb, sort: Exclude<TListSort, 'latest'>) {
  return prepared(db, `assembly.search.rank:${sort}`, (d) => rankAmongQuery(d, sort).prepare());
}

/** rankAmong's statement, unprepared, for the query-plan test. */
export function rankAmongQuery(d: TDb, sort: Exclude<TListSort, 'latest'>) {
  return d
    .select({ id: assemblies.id })
    .from(assemblies)
    .where(listableAmong())
    .orderBy(...SORT_KEYS[sort].map((column) => sql`+${column} desc`))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

function rowsAmong(db: TDb) {
  return prepared(db, 'assembly.search.rows', (d) =>
    selectRows(d)
      .where(listableAmong())
      .prepare(),
  );
}

/** The full rows of a page's ids, in the ids' order. */
async function rowsInOrder(db: TDb, ids: number[]): Promise<TRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await rowsAmong(db).all({ ids: JSON.stringify(ids) })).map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface TAssemblyList {
  items: TAssemblySummary[];
  pagination: TPagination;
  /** True when a keyword matched more than MAX_SEARCH_RESULTS assemblies (only the newest are paged). */
  truncated: boolean;
}

export async function listAssemblies(db: TDb, cache: TReadCache, query: TListQuery, now: Date): Promise<TAssemblyList> {
  const key = LIST_PREFIX + JSON.stringify([query.page, query.pageSize, query.keyword ?? '', query.shipType ?? '', query.sort]);
  const cached = cache.get<TAssemblyList>(key);
  if (cached) return cached;

  const window = pageWindow(query.page, query.pageSize);
  const keyword = query.keyword?.trim();
  // A keyword made only of punctuation matches nothing rather than everything.
  const match = keyword ? (ftsQuery(keyword) ?? false) : null;
  const shipType = query.shipType?.trim() || null;
  const hulls = shipType === null ? null : (await hullsOf(db).all({ shipType })).map((hull) => hull.id);
  let result: TAssemblyList;
  if (match === false || hulls?.length === 0) {
    // No hull of the catalog is of that class (or nothing searchable): nothing to walk.
    result = { items: [], pagination: window.describe(0), truncated: false };
  } else if (match === null) {
    const params = { hulls: JSON.stringify(hulls ?? []), limit: window.limit, offset: window.offset, ...Object.fromEntries((hulls ?? []).map((id, i) => [`hull${i}`, id])) };
    const total = (await listableCount(db, hulls !== null).get(params))?.n ?? 0;
    const ids = window.offset < total ? (await pageIds(db, query.sort, hulls?.length ?? 0).all(params)).map((row) => row.id!) : [];
    result = { items: (await rowsInOrder(db, ids)).map(toSummary), pagination: window.describe(total), truncated: false };
  } else {
    // One more than the cap tells "exactly the cap" from "more than the cap".
    const found = JSON.parse((await searchCandidates(db).get({ match: searchMatch(match, hulls), cap: MAX_SEARCH_RESULTS + 1 }))?.ids ?? '[]') as number[];
    const ids = found.slice(0, MAX_SEARCH_RESULTS);
    // `latest` is the candidates' own order; the other sorts rank all candidates and keep the page.
    const pageOf =
      query.sort === 'latest'
        ? ids.slice(window.offset, window.offset + window.limit)
        : ids.length > window.offset
          ? (await rankAmong(db, query.sort).all({ ids: JSON.stringify(ids), limit: window.limit, offset: window.offset })).map((row) => row.id)
          : [];
    result = { items: (await rowsInOrder(db, pageOf)).map(toSummary), pagination: window.describe(ids.length), truncated: found.length > MAX_SEARCH_RESULTS };
  }
  // Pages count against the read cache's byte budget like stored REST answers: a burst of distinct searches would otherwise fill 2,000 entries with ~15 KB each.
  cache.set(key, result, { bytes: LIST_PAGE_HEAP_BYTES + result.items.length * SUMMARY_HEAP_BYTES });
  return result;
}

/** Likes and ratings: anyone who can read the assembly, except its creator. */
async function findVotable(db: TDb, uuid: string, userId: string, password: string | undefined, guesses: TPasswordGuesses | undefined): Promise<TRow> {
  const row = await findActive(db, uuid);
  if (row.creatorId === userId) throw new AppError('FORBIDDEN', 'You cannot like or rate your own assembly');
  await assertReadable(uuid, row, userId, password, guesses);
  return row;
}

export async function likeAssembly(
  db: TDb,
  cache: TReadCache,
  userId: string,
  input: { uuid: string; like: boolean; password?: string },
  now: Date,
  guesses?: TPasswordGuesses,
): Promise<{ uuid: string; liked: boolean; likes: number }> {
  const row = await findVotable(db, input.uuid, userId, input.password, guesses);
  const likes = await transaction(db, async (tx) => {
    if (input.like) {
      await tx.insert(assemblyLikes).values({ assemblyId: row.id, userId, createdAt: now }).onConflictDoNothing();
    } else {
      await tx.delete(assemblyLikes).where(and(eq(assemblyLikes.assemblyId, row.id), eq(assemblyLikes.userId, userId)));
    }
    const n = (await tx.select({ n: count() }).from(assemblyLikes).where(eq(assemblyLikes.assemblyId, row.id)).get())?.n ?? 0;
    await tx.update(assemblies).set({ likes: n }).where(eq(assemblies.id, row.id));
    return n;
  });
  await invalidateAssembly(cache, input.uuid);
  return { uuid: input.uuid, liked: input.like, likes };
}

export async function rateAssembly(
  db: TDb,
  cache: TReadCache,
  userId: string,
  input: { uuid: string; score: number; password?: string },
  now: Date,
  guesses?: TPasswordGuesses,
): Promise<{ uuid: string; yourScore: number; rating: ReturnType<typeof ratingOf> }> {
  const row = await findVotable(db, input.uuid, userId, input.password, guesses);
  const totals = await transaction(db, async (tx) => {
    await tx
      .insert(assemblyRatings)
      .values({ assemblyId: row.id, userId, score: input.score, updatedAt: now })
      .onConflictDoUpdate({ target: [assemblyRatings.assemblyId, assemblyRatings.userId], set: { score: input.score, updatedAt: now } });
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
  await invalidateAssembly(cache, input.uuid);
  return { uuid: input.uuid, yourScore: input.score, rating: ratingOf(totals.sum, totals.n) };
}
