// The rows of `assemblies` as the services read them, and their mapping to the views the API returns.
import { Column, eq, is, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { assemblies, catalogHulls, users } from '../../../db/schema';
import { storedViewsOfRow } from '../../infra/view-counter';
import { AppError } from '../../errors';
import { jsonOfAnswer, weakEtag } from '../../etag';
import type { TLoadout, TWeaponEntry } from './fields';
import { ratingOf } from './rating';
import { isoTime } from './iso-time';
import { clientDataOf } from './client-format';
import type { TClientExtras } from './fields';
import type { TAssemblyItem, TAssemblySummary, TAssemblyView } from './schemas';

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
  client: assemblies.client,
  isPublic: assemblies.isPublic,
  passwordHash: assemblies.passwordHash,
  creatorId: assemblies.creatorId,
  creatorName: sql<string>`(select ${users.username} from ${users} where ${users.id} = ${assemblies.creatorId})`,
  creatorAvatar: sql<
    string | null
  >`(select ${users.avatarUrl} from ${users} where ${users.id} = ${assemblies.creatorId})`,
  likes: assemblies.likes,
  // Its own table (migration 0017): the view counter's flush rewrites narrow rows, not this one.
  views: storedViewsOfRow,
  ratingSum: assemblies.ratingSum,
  ratingCount: assemblies.ratingCount,
  createdAt: assemblies.createdAt,
  updatedAt: assemblies.updatedAt,
  deletedAt: assemblies.deletedAt,
  hullId: sql<
    string | null
  >`(select ${catalogHulls.id} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
  hullSize: sql<
    string | null
  >`(select ${catalogHulls.size} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
  hullArchetype: sql<
    string | null
  >`(select ${catalogHulls.archetype} from ${catalogHulls} where ${catalogHulls.id} = ${assemblies.shipId})`,
  // Forks (forks.ts): the original's uuid in the same statement (a primary-key lookup), null without one or once it is purged.
  // Written out: drizzle leaves the columns of a one-table select unqualified, and the outer row must be named here.
  cloningUuid: sql<
    string | null
  >`(select "origin"."uuid" from "assemblies" as "origin" where "origin"."id" = "assemblies"."cloned_from_id")`,
  forkCount: assemblies.forkCount,
};

/**
 * Rows of `assemblies` with their creator's name and hull as correlated scalar subqueries, not joins.
 * better-sqlite3's SQLite is built with SQLITE_ENABLE_STAT4, and on an analyzed database the planner
 * of a join reads the bound uuid, so SQLite re-prepares the statement every time a new one is bound
 * (sqlite3_stmt_status REPREPARE counted one per call) and better-sqlite3 then rebuilds its row
 * factory: ~60-75 µs a lookup joined to users and hulls, against ~10-15 µs for the same columns
 * through subqueries, whose every select is on one table and takes the planner's one-table shortcut
 * (bench/README.md, issue 22). Every assembly has its creator (a foreign key, cascading), so the
 * inner join filtered nothing.
 */
export function selectRows(db: TDb) {
  return db.select(viewColumns).from(assemblies);
}

export type TRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectRows>['get']>>>;

/** Each field of viewColumns in select order, with its column's decoding (booleans, timestamps); SQL fields come as stored. */
const VIEW_FIELDS = Object.entries(viewColumns).map(([key, field]) => ({
  key,
  decode: is(field, Column) ? (value: unknown) => field.mapFromDriverValue(value) : undefined,
}));

/**
 * One row from the driver's values: one object literal, written out once from VIEW_FIELDS, as
 * `(v) => ({ "id": v[0] ?? null, ..., "isPublic": v[10] == null ? null : decode[10](v[10]), ... })`.
 * Filling an empty object field by field in a loop went through a megamorphic keyed store and a new
 * shape for each of the 27 fields: 3 µs a row against 0.3 for the literal (bench/row-mapping.ts).
 * The keys are viewColumns', never input.
 */
const rowOfValues = new Function(
  'decode',
  `return (v) => ({ ${VIEW_FIELDS.map(({ key, decode }, i) => `${JSON.stringify(key)}: ${decode ? `v[${i}] == null ? null : decode[${i}](v[${i}])` : `v[${i}] ?? null`}`).join(', ')} });`,
)(VIEW_FIELDS.map(({ decode }) => decode)) as (values: unknown[]) => TRow;

/**
 * The rows of a selectRows query from the driver's values (`.values()`), decoded as drizzle's own
 * `.all()` decodes them, without its generic walk of every field (entity checks, nested paths) for
 * every row: 5.5 of the 11 µs per row of a search page went to that walk (bench/README.md, issue 22).
 * Every read of assembly rows goes through it.
 */
export function rowsOf(values: unknown[][]): TRow[] {
  return values.map((value) => rowOfValues(value));
}

/** The stored extras of the web client (client-format.ts), parsed. */
export function clientOf(row: Pick<TRow, 'client'>): TClientExtras {
  return JSON.parse(row.client) as TClientExtras;
}

function sharedOf(row: TRow, client: TClientExtras) {
  const anonymous = client.attr?.isAnonymous === true;
  return {
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    userId: anonymous ? null : row.creatorId,
    username: anonymous ? '' : row.creatorName,
    userAvatar: anonymous ? null : row.creatorAvatar,
    likes: row.likes,
    views: row.views,
    forkCount: row.forkCount,
    rating: ratingOf(row.ratingSum, row.ratingCount),
    shipId: row.shipId,
    ship: row.hullId ? { id: row.hullId, size: row.hullSize, archetype: row.hullArchetype } : null,
    createdTime: isoTime(row.createdAt),
    updatedTime: isoTime(row.updatedAt),
  };
}

/**
 * A list item. Its `assembly` is the loadout in the web client's form: as the client sent it, or built
 * from ours, whose JSON columns are then parsed (only then).
 */
export function toSummary(row: TRow): TAssemblySummary {
  const client = clientOf(row);
  return {
    ...sharedOf(row, client),
    isLiked: false,
    attr: client.attr ?? {},
    assembly: client.data ?? clientDataOf(loadoutOf(row)),
  };
}

/** The view of a readable assembly; `isOwner` is the caller's (getAssembly sets it per read). */
export function toView(row: TRow, viewerId?: string): TAssemblyView {
  const client = clientOf(row);
  const shared = sharedOf(row, client);
  // Each JSON column parsed once: the loadout's arrays are the answer's `weapons` and `furnitures` too.
  const loadout = loadoutOf(row);
  return {
    ...shared,
    assembly: {
      visibility: row.isPublic ? 'publicly' : 'private',
      tags: shared.tags,
      attr: client.attr ?? {},
      data: client.data ?? clientDataOf(loadout),
    },
    wheel: { attr: client.wheel?.attr ?? {}, data: client.wheel?.data ?? null },
    warehouse: { attr: client.warehouse?.attr ?? {}, data: client.warehouse?.data ?? null },
    weapons: loadout.weapons,
    armor: row.armor,
    furnitures: loadout.furnitures,
    isVisibility: true,
    isPassword: false,
    isOwner: viewerId !== undefined && viewerId === row.creatorId,
    // The caller's own like: getAssembly sets it per read; writes answer their creator, who cannot like it.
    isLiked: false,
    cloningUuid: row.cloningUuid,
  };
}

export function loadoutOf(row: Pick<TRow, 'shipId' | 'weapons' | 'armor' | 'furnitures'>): TLoadout {
  return {
    shipId: row.shipId,
    weapons: JSON.parse(row.weapons) as TWeaponEntry[],
    armor: row.armor,
    furnitures: JSON.parse(row.furnitures) as string[],
  };
}

/**
 * The item's ETag: of its view without the live `views` counter, so a read (which counts a view) does
 * not change it while any other field of the answer (an edit, a like, a rating) does. GET /assembly/item
 * sends it; an edit's If-Match is compared with it, computed afresh from the row. It hashes the JSON of
 * the view without `views` and `isOwner` (the caller's), cut out of the answer's own JSON text, which
 * the REST envelope then reuses (jsonOfAnswer): one serialisation per read, not two.
 */
export function itemEtag(view: TAssemblyItem): string {
  const json = jsonOfAnswer(view);
  if (!view.isVisibility) return weakEtag(json);
  const stable = withoutField(json, 'views', String(view.views), 'first');
  const cut = stable === undefined ? undefined : withoutField(stable, 'isOwner', String(view.isOwner), 'last');
  if (cut !== undefined) return weakEtag(cut);
  const { views: _views, isOwner: _isOwner, ...rest } = view;
  return weakEtag(JSON.stringify(rest));
}

/**
 * `json` (an object's text) without its member `"<field>":<value>` and the comma after it: the same
 * text as the object serialised without that key. Strings in JSON escape their quotes, so an unescaped
 * `"<field>":` is a key; `which` says whether the view's own is the first of its name (`views` comes
 * before any nested object) or the last (`isOwner` comes after them all, followed by `isLiked` and
 * `cloningUuid`). Undefined when the text there is not `value` followed by a comma.
 */
function withoutField(json: string, field: string, value: string, which: 'first' | 'last'): string | undefined {
  const key = `"${field}":`;
  const at = which === 'first' ? json.indexOf(key) : json.lastIndexOf(key);
  const end = at + key.length + value.length;
  if (at < 0 || !json.startsWith(value, at + key.length) || json[end] !== ',') return undefined;
  return json.slice(0, at) + json.slice(end + 1);
}

async function findRow(db: TDb, uuid: string): Promise<TRow | undefined> {
  const query = prepared(db, 'assembly.byUuid', (d) =>
    selectRows(d)
      .where(eq(assemblies.uuid, sql.placeholder('uuid')))
      .prepare(),
  );
  return rowsOf(await query.values({ uuid }))[0];
}

/** An assembly that is not in the trash; 404 otherwise (trashed ones do not exist for readers). */
export async function findActive(db: TDb, uuid: string): Promise<TRow> {
  const row = await findRow(db, uuid);
  if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND', `Assembly ${uuid} not found`);
  return row;
}

/** The row in a transaction: read through its own `tx`, not the prepared statements of the outer database. */
export async function findRowIn(tx: TDb, uuid: string): Promise<TRow | undefined> {
  return rowsOf(await selectRows(tx).where(eq(assemblies.uuid, uuid)).values())[0];
}
