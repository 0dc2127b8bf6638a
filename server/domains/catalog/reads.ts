/** Catalog reads: the hull and items a loadout names, and the pages of hulls and items for loadout builders. */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { catalogHulls, catalogItems } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import type { THullQuery, THullRecord, TItemQuery, TItemRecord, TSlot } from './schemas';

/** One hull by id, or undefined. */
export async function loadHull(deps: TDepsOf<'db'>, { id }: { id: string }): Promise<THullRecord | undefined> {
  const row = await deps.db
    .select({
      id: catalogHulls.id,
      size: catalogHulls.size,
      archetype: catalogHulls.archetype,
      hitpoints: catalogHulls.hitpoints,
      braceStrength: catalogHulls.braceStrength,
      halfSail: catalogHulls.halfSail,
      fullSail: catalogHulls.fullSail,
      travelSail: catalogHulls.travelSail,
      cargoSlots: catalogHulls.cargoSlots,
      cargoMaxWeight: catalogHulls.cargoMaxWeight,
      slots: catalogHulls.slots,
      perks: catalogHulls.perks,
    })
    .from(catalogHulls)
    .where(inArray(catalogHulls.id, [id]))
    .get();
  if (!row) return undefined;
  return { ...row, slots: JSON.parse(row.slots) as Record<string, TSlot>, perks: JSON.parse(row.perks) as string[] };
}

/** The items of these ids that exist, by id. */
export async function loadItems(deps: TDepsOf<'db'>, { ids }: { ids: string[] }): Promise<Map<string, TItemRecord>> {
  const unique = [...new Set(ids)];
  const found = new Map<string, TItemRecord>();
  if (unique.length === 0) return found;
  const rows = await deps.db
    .select({
      id: catalogItems.id,
      type: catalogItems.type,
      category: catalogItems.category,
      damagePerShot: catalogItems.damagePerShot,
      projectilesPerShot: catalogItems.projectilesPerShot,
      reloadSpeedMs: catalogItems.reloadSpeedMs,
      optimalRange: catalogItems.optimalRange,
      armor: catalogItems.armor,
      damageMitigation: catalogItems.damageMitigation,
      gearScore: catalogItems.gearScore,
      weight: catalogItems.weight,
      perks: catalogItems.perks,
      requiredSize: catalogItems.requiredSize,
    })
    .from(catalogItems)
    .where(inArray(catalogItems.id, unique))
    .all();
  for (const row of rows) {
    found.set(row.id, {
      ...row,
      damageMitigation: row.damageMitigation ? (JSON.parse(row.damageMitigation) as Record<string, number>) : null,
      perks: JSON.parse(row.perks) as string[],
    });
  }
  return found;
}

function toHull(row: typeof catalogHulls.$inferSelect): THullRecord {
  const { raw: _raw, importedAt: _importedAt, slots, perks, ...rest } = row;
  return { ...rest, slots: JSON.parse(slots) as Record<string, TSlot>, perks: JSON.parse(perks) as string[] };
}

function toItem(row: typeof catalogItems.$inferSelect): TItemRecord {
  const { raw: _raw, importedAt: _importedAt, damageMitigation, perks, ...rest } = row;
  return {
    ...rest,
    damageMitigation: damageMitigation ? (JSON.parse(damageMitigation) as Record<string, number>) : null,
    perks: JSON.parse(perks) as string[],
  };
}

/** Hulls for loadout builders, by id; `size` filters by hull size. */
export async function listHulls(deps: TDepsOf<'db'>, query: THullQuery) {
  const { db } = deps;
  const window = pageWindow(query.page, query.pageSize);
  const where = query.size ? eq(catalogHulls.size, query.size) : undefined;
  const total = (await db.select({ n: count() }).from(catalogHulls).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(catalogHulls)
    .where(where)
    .orderBy(asc(catalogHulls.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return { data: rows.map(toHull), pagination: window.describe(total) };
}

/** Items for loadout builders, by id; filters by category (weapon, armor, furniture, other) and type. */
export async function listItems(deps: TDepsOf<'db'>, query: TItemQuery) {
  const { db } = deps;
  const window = pageWindow(query.page, query.pageSize);
  const conditions = [
    query.category ? eq(catalogItems.category, query.category) : undefined,
    query.type ? eq(catalogItems.type, query.type) : undefined,
  ].filter((condition) => condition !== undefined);
  const where = conditions.length ? and(...conditions) : undefined;
  const total = (await db.select({ n: count() }).from(catalogItems).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(catalogItems)
    .where(where)
    .orderBy(asc(catalogItems.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return { data: rows.map(toItem), pagination: window.describe(total) };
}
