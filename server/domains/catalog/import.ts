/**
 * Catalog import: hull and item files of the community format, upserted in one transaction; entries
 * that cannot be used are skipped and reported. The CLI, the admin API and the demo seed call it.
 */
import { inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { catalogHulls, catalogItems } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { AppError } from '../../errors';
import { categoryOf } from './kinds';
import { ZCatalogFile, ZCommunityHull, ZCommunityItem, ZSlot, type TImportReport, type TSlot } from './schemas';

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
export async function importCatalog(
  deps: TDepsOf<'db' | 'now'>,
  { files, onProgress }: { files: { ships: unknown; items: unknown }; onProgress?: TProgressListener },
): Promise<TImportReport> {
  const now = deps.now();
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

  onProgress?.('checking catalog entries', hullRows.length + itemRows.length + report.skipped.length, hullRows.length + itemRows.length + report.skipped.length);
  await transaction(deps.db, async (tx) => {
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
      onProgress?.('writing hulls', Math.min(hullRows.length, start + CHUNK), hullRows.length);
    }
    for (let start = 0; start < itemRows.length; start += CHUNK) {
      await tx
        .insert(catalogItems)
        .values(itemRows.slice(start, start + CHUNK))
        .onConflictDoUpdate({ target: catalogItems.id, set: excludedColumns(['type', 'category', 'damage_per_shot', 'projectiles_per_shot', 'reload_speed_ms', 'optimal_range', 'armor', 'damage_mitigation', 'gear_score', 'weight', 'perks', 'required_size', 'raw', 'imported_at']) });
      onProgress?.('writing items', Math.min(itemRows.length, start + CHUNK), itemRows.length);
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
