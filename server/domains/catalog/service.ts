import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { catalogHulls, catalogItems } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';

/**
 * The game catalog: hulls and items in the community data format (glow-prow-data / snbdata).
 * The format drifts between releases (`hitpoints` or `hitPoints`, `blueprint` as a string, a list or
 * a nested list, fields that are absent), so the schemas below only insist on what a loadout needs
 * and keep everything else verbatim in `raw`.
 */

export const WEAPON_TYPES = [
  'culverin', 'longGun', 'demicannon', 'bombard', 'torpedo', 'ballista', 'seaFire', 'mortar', 'rocket', 'springloader',
] as const;
export const FURNITURE_TYPES = ['majorFurniture', 'offensiveFurniture', 'utilityFurniture'] as const;
export const HULL_SIZES = ['extraSmall', 'small', 'medium', 'large'] as const;

/**
 * Slot kinds of the community format that take an entry of `weapons`. Furniture has its own list;
 * `attachement` and `ultimate` slots hold things items.json does not describe, so no item fits them.
 */
export const WEAPON_SLOT_KINDS = ['frontWeapon', 'leftSideWeapon', 'rightSideWeapon', 'aftWeapon', 'auxiliaryWeapon'] as const;
export type TWeaponSlotKind = (typeof WEAPON_SLOT_KINDS)[number];

export type TItemCategory = 'weapon' | 'armor' | 'furniture' | 'other';

export function categoryOf(type: string): TItemCategory {
  if ((WEAPON_TYPES as readonly string[]).includes(type)) return 'weapon';
  if (type === 'armor') return 'armor';
  if ((FURNITURE_TYPES as readonly string[]).includes(type)) return 'furniture';
  return 'other';
}

/** Rank of a hull size, for `requiredSize` checks; unknown sizes rank lowest. */
export function sizeRank(size: string | null | undefined): number {
  return size ? (HULL_SIZES as readonly string[]).indexOf(size) : -1;
}

/** A finite number, or a numeric string; anything else (absent, null, "n/a") reads as absent. */
const zLooseNumber = z
  .unknown()
  .optional()
  .transform((value) => {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof number === 'number' && Number.isFinite(number) ? number : null;
  });

const zLooseString = z.unknown().optional().transform((value) => (typeof value === 'string' && value !== '' ? value : null));

const zStringList = z
  .unknown()
  .optional()
  .transform((value) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []));

/** `blueprint`: a string, a list of strings or a nested list; flattened to the sources it names. */
export const ZBlueprint = z
  .unknown()
  .optional()
  .transform((value): string[] => {
    const out: string[] = [];
    const walk = (node: unknown, depth: number) => {
      if (typeof node === 'string') out.push(node);
      else if (Array.isArray(node) && depth < 8) for (const child of node) walk(child, depth + 1);
    };
    walk(value, 0);
    return out;
  });

/** `[count, perDeck]` where perDeck is a number or `{ top, lower? }`; gunPorts is the number of mounts. */
const ZSlot = z
  .tuple([z.number().int().min(0).max(100), z.union([z.number().min(0), z.looseObject({ top: z.number().min(0).optional(), lower: z.number().min(0).optional() })]).optional()])
  .rest(z.unknown())
  .transform(([count, perDeck]) => ({
    count,
    gunPorts: perDeck === undefined ? 1 : typeof perDeck === 'number' ? perDeck : (perDeck.top ?? 0) + (perDeck.lower ?? 0),
  }));

export type TSlot = { count: number; gunPorts: number };

export const ZCommunityHull = z.looseObject({
  id: z.string().min(1).optional(),
  size: zLooseString,
  archetype: zLooseString,
  hitpoints: zLooseNumber,
  hitPoints: zLooseNumber,
  braceStrength: zLooseNumber,
  sailSpeed: z
    .looseObject({ halfSail: zLooseNumber, fullSail: zLooseNumber, travelSail: zLooseNumber })
    .optional()
    .catch(undefined),
  cargo: z.looseObject({ cargoSlots: zLooseNumber, cargoMaxWeight: zLooseNumber }).optional().catch(undefined),
  slots: z.record(z.string(), z.unknown()).optional().catch(undefined),
  perks: zStringList,
  blueprint: ZBlueprint,
});

export const ZCommunityItem = z.looseObject({
  id: z.string().min(1).optional(),
  type: z.string({ error: 'is required (a string such as culverin, armor, consumable)' }).min(1, 'must not be empty'),
  damagePerShot: zLooseNumber,
  projectilesPerShot: zLooseNumber,
  reloadSpeed: zLooseNumber,
  optimalRange: zLooseNumber,
  armor: zLooseNumber,
  damageMitigation: z.record(z.string(), z.number()).optional().catch(undefined),
  gearScore: zLooseNumber,
  weight: zLooseNumber,
  perks: zStringList,
  requiredSize: zLooseString,
  blueprint: ZBlueprint,
});

/** Both files are objects keyed by id; the values are checked one by one so one bad entry does not sink the import. */
export const ZCatalogFile = z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by id' });

export interface TImportReport {
  hulls: { inserted: number; updated: number };
  items: { inserted: number; updated: number; byCategory: Record<TItemCategory, number>; byType: Record<string, number> };
  skipped: { file: 'ships' | 'items'; id: string; reason: string }[];
}

type THullRow = typeof catalogHulls.$inferInsert;
type TItemRow = typeof catalogItems.$inferInsert;

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid entry';
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function hullRow(key: string, entry: unknown, now: Date): THullRow | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'entry is not an object';
  const parsed = ZCommunityHull.safeParse(entry);
  if (!parsed.success) return describeIssue(parsed.error);
  const hull = parsed.data;
  // Keys come from the import file: no prototype, so `__proto__` or `constructor` is only ever a slot name.
  const slots: Record<string, TSlot> = Object.create(null);
  for (const [kind, value] of Object.entries(hull.slots ?? {})) {
    const slot = ZSlot.safeParse(value);
    // A slot we cannot read is left out: the hull stays usable with the slots we understand.
    if (slot.success) slots[kind] = slot.data;
  }
  return {
    id: key,
    size: hull.size,
    archetype: hull.archetype,
    hitpoints: hull.hitpoints ?? hull.hitPoints,
    braceStrength: hull.braceStrength,
    halfSail: hull.sailSpeed?.halfSail ?? null,
    fullSail: hull.sailSpeed?.fullSail ?? null,
    travelSail: hull.sailSpeed?.travelSail ?? null,
    cargoSlots: hull.cargo?.cargoSlots ?? null,
    cargoMaxWeight: hull.cargo?.cargoMaxWeight ?? null,
    slots: JSON.stringify(slots),
    perks: JSON.stringify(hull.perks),
    raw: JSON.stringify(entry),
    importedAt: now,
  };
}

function itemRow(key: string, entry: unknown, now: Date): TItemRow | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'entry is not an object';
  const parsed = ZCommunityItem.safeParse(entry);
  if (!parsed.success) return describeIssue(parsed.error);
  const item = parsed.data;
  return {
    id: key,
    type: item.type,
    category: categoryOf(item.type),
    damagePerShot: item.damagePerShot,
    projectilesPerShot: item.projectilesPerShot,
    reloadSpeedMs: item.reloadSpeed,
    optimalRange: item.optimalRange,
    armor: item.armor,
    damageMitigation: item.damageMitigation ? JSON.stringify(item.damageMitigation) : null,
    gearScore: item.gearScore,
    weight: item.weight,
    perks: JSON.stringify(item.perks),
    requiredSize: item.requiredSize,
    raw: JSON.stringify(entry),
    importedAt: now,
  };
}

// Ids travel in JSON and query strings only; refuse just the unusable ones (empty, huge, control characters).
const ID_PATTERN = /^[^\u0000-\u001f\u007f]{1,100}$/u;
const CHUNK = 100;

/**
 * Imports hull and item files of the community format. Entries that cannot be used are skipped and
 * reported; everything usable is upserted in one transaction (a re-import updates rows in place).
 */
export async function importCatalog(db: TDb, files: { ships: unknown; items: unknown }, now: Date): Promise<TImportReport> {
  const ships = ZCatalogFile.safeParse(files.ships);
  const items = ZCatalogFile.safeParse(files.items);
  if (!ships.success || !items.success) {
    const issues = [
      ...(ships.success ? [] : [{ path: 'ships', message: 'must be a JSON object keyed by hull id' }]),
      ...(items.success ? [] : [{ path: 'items', message: 'must be a JSON object keyed by item id' }]),
    ];
    throw new AppError('BAD_REQUEST', `Invalid catalog: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`, { issues });
  }
  const report: TImportReport = {
    hulls: { inserted: 0, updated: 0 },
    items: { inserted: 0, updated: 0, byCategory: { weapon: 0, armor: 0, furniture: 0, other: 0 }, byType: Object.create(null) as Record<string, number> },
    skipped: [],
  };
  const hullRows: THullRow[] = [];
  for (const [key, entry] of Object.entries(ships.data)) {
    const row = ID_PATTERN.test(key) ? hullRow(key, entry, now) : 'id must be 1-100 characters without control characters';
    if (typeof row === 'string') report.skipped.push({ file: 'ships', id: key, reason: row });
    else hullRows.push(row);
  }
  const itemRows: TItemRow[] = [];
  for (const [key, entry] of Object.entries(items.data)) {
    const row = ID_PATTERN.test(key) ? itemRow(key, entry, now) : 'id must be 1-100 characters without control characters';
    if (typeof row === 'string') report.skipped.push({ file: 'items', id: key, reason: row });
    else {
      itemRows.push(row);
      report.items.byCategory[row.category]++;
      report.items.byType[row.type] = (report.items.byType[row.type] ?? 0) + 1;
    }
  }

  await transaction(db, async (tx) => {
    const knownHulls = new Set<string>();
    const knownItems = new Set<string>();
    for (let start = 0; start < hullRows.length; start += CHUNK) {
      const ids = hullRows.slice(start, start + CHUNK).map((row) => row.id);
      for (const row of await tx.select({ id: catalogHulls.id }).from(catalogHulls).where(inArray(catalogHulls.id, ids)).all()) knownHulls.add(row.id);
    }
    for (let start = 0; start < itemRows.length; start += CHUNK) {
      const ids = itemRows.slice(start, start + CHUNK).map((row) => row.id);
      for (const row of await tx.select({ id: catalogItems.id }).from(catalogItems).where(inArray(catalogItems.id, ids)).all()) knownItems.add(row.id);
    }
    for (let start = 0; start < hullRows.length; start += CHUNK) {
      await tx
        .insert(catalogHulls)
        .values(hullRows.slice(start, start + CHUNK))
        .onConflictDoUpdate({ target: catalogHulls.id, set: excludedColumns(['size', 'archetype', 'hitpoints', 'brace_strength', 'half_sail', 'full_sail', 'travel_sail', 'cargo_slots', 'cargo_max_weight', 'slots', 'perks', 'raw', 'imported_at']) });
    }
    for (let start = 0; start < itemRows.length; start += CHUNK) {
      await tx
        .insert(catalogItems)
        .values(itemRows.slice(start, start + CHUNK))
        .onConflictDoUpdate({ target: catalogItems.id, set: excludedColumns(['type', 'category', 'damage_per_shot', 'projectiles_per_shot', 'reload_speed_ms', 'optimal_range', 'armor', 'damage_mitigation', 'gear_score', 'weight', 'perks', 'required_size', 'raw', 'imported_at']) });
    }
    report.hulls.updated = knownHulls.size;
    report.hulls.inserted = hullRows.length - knownHulls.size;
    report.items.updated = knownItems.size;
    report.items.inserted = itemRows.length - knownItems.size;
  });
  return report;
}

function excludedColumns(columns: string[]) {
  return Object.fromEntries(columns.map((column) => [camel(column), sql.raw(`excluded.${column}`)]));
}

function camel(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** One line per figure, for the CLI and logs. */
export function formatImportReport(report: TImportReport): string[] {
  const types = Object.entries(report.items.byType)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
  const lines = [
    `hulls: ${report.hulls.inserted + report.hulls.updated} (${report.hulls.inserted} new, ${report.hulls.updated} updated)`,
    `items: ${report.items.inserted + report.items.updated} (${report.items.inserted} new, ${report.items.updated} updated)`,
    `  equipment: ${report.items.byCategory.weapon} weapons, ${report.items.byCategory.armor} armor, ${report.items.byCategory.furniture} furniture; other types kept: ${report.items.byCategory.other}`,
    `  by type (${Object.keys(report.items.byType).length}): ${types || 'none'}`,
    `skipped: ${report.skipped.length}`,
  ];
  for (const skipped of report.skipped) lines.push(`  ${skipped.file} "${skipped.id}": ${skipped.reason}`);
  return lines;
}

export interface THullRecord {
  id: string;
  size: string | null;
  archetype: string | null;
  hitpoints: number | null;
  braceStrength: number | null;
  halfSail: number | null;
  fullSail: number | null;
  travelSail: number | null;
  cargoSlots: number | null;
  cargoMaxWeight: number | null;
  slots: Record<string, TSlot>;
  perks: string[];
}

export interface TItemRecord {
  id: string;
  type: string;
  category: TItemCategory;
  damagePerShot: number | null;
  projectilesPerShot: number | null;
  reloadSpeedMs: number | null;
  optimalRange: number | null;
  armor: number | null;
  damageMitigation: Record<string, number> | null;
  gearScore: number | null;
  weight: number | null;
  perks: string[];
  requiredSize: string | null;
}

export async function loadHull(db: TDb, id: string): Promise<THullRecord | undefined> {
  const row = await db
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

export async function loadItems(db: TDb, ids: string[]): Promise<Map<string, TItemRecord>> {
  const unique = [...new Set(ids)];
  const found = new Map<string, TItemRecord>();
  if (unique.length === 0) return found;
  const rows = await db
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

export interface TCatalogQuery {
  page: number;
  pageSize: number;
  category?: TItemCategory;
  type?: string;
  size?: string;
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
export async function listHulls(db: TDb, query: TCatalogQuery) {
  const window = pageWindow(query.page, query.pageSize);
  const where = query.size ? eq(catalogHulls.size, query.size) : undefined;
  const total = (await db.select({ n: count() }).from(catalogHulls).where(where).get())?.n ?? 0;
  const rows = await db.select().from(catalogHulls).where(where).orderBy(asc(catalogHulls.id)).limit(window.limit).offset(window.offset).all();
  return { items: rows.map(toHull), pagination: window.describe(total) };
}

/** Items for loadout builders, by id; filters by category (weapon, armor, furniture, other) and type. */
export async function listItems(db: TDb, query: TCatalogQuery) {
  const window = pageWindow(query.page, query.pageSize);
  const conditions = [
    query.category ? eq(catalogItems.category, query.category) : undefined,
    query.type ? eq(catalogItems.type, query.type) : undefined,
  ].filter((condition) => condition !== undefined);
  const where = conditions.length ? and(...conditions) : undefined;
  const total = (await db.select({ n: count() }).from(catalogItems).where(where).get())?.n ?? 0;
  const rows = await db.select().from(catalogItems).where(where).orderBy(asc(catalogItems.id)).limit(window.limit).offset(window.offset).all();
  return { items: rows.map(toItem), pagination: window.describe(total) };
}
