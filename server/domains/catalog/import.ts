/**
 * Catalog import: hull and item files of the community format, upserted in one transaction. Every
 * entry must be usable, a hull in ships.json and an item in items.json; otherwise the import is
 * refused whole, with a 400 that lists the problems by file and entry. The CLI, the admin API and the
 * demo seed call it.
 */
import { inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { catalogHulls, catalogItems } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { invalidFile, type TIssue } from '../../errors';
import { jsonProblem } from '../../schemas';
import { categoryOf } from './kinds';
import { ZCatalogFile, ZCommunityHull, ZCommunityItem, ZSlot, type TImportReport, type TSlot } from './schemas';

type THullRow = typeof catalogHulls.$inferInsert;
type TItemRow = typeof catalogItems.$inferInsert;

function describeIssues(error: z.ZodError): string {
  if (error.issues.length === 0) return 'invalid entry';
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function hullRow(key: string, entry: unknown, now: Date): THullRow | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'entry is not an object';
  const parsed = ZCommunityHull.safeParse(entry);
  if (!parsed.success) return describeIssues(parsed.error);
  const hull = parsed.data;
  // Keys come from the import file: no prototype, so `__proto__` or `constructor` is only ever a slot name.
  const slots: Record<string, TSlot> = Object.create(null);
  for (const [kind, value] of Object.entries(hull.slots)) {
    const slot = ZSlot.safeParse(value);
    // A slot we cannot read is left out: the hull stays usable with the slots we understand.
    if (slot.success) slots[kind] = slot.data;
  }
  if (Object.keys(slots).length === 0) return 'slots: none is [count, gun ports]';
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
  if (!parsed.success) return describeIssues(parsed.error);
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
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const ID_PATTERN = /^[^\u0000-\u001f\u007f]{1,100}$/u;
const CHUNK = 100;

/** What a file of the catalog holds: its rows, or why an entry is not one. */
interface TKind<TRow> {
  plural: string;
  toRow: (key: string, entry: unknown, now: Date) => TRow | string;
}

const HULLS: TKind<THullRow> = { plural: 'hulls', toRow: hullRow };
const ITEMS: TKind<TItemRow> = { plural: 'items', toRow: itemRow };

/** An entry is kept verbatim in `raw` (opaque JSON): plain JSON at most MAX_JSON_DEPTH levels deep, as every opaque JSON input. */
function rowOf<TRow>(kind: TKind<TRow>, key: string, entry: unknown, now: Date): TRow | string {
  if (!ID_PATTERN.test(key)) return 'id must be 1-100 characters without control characters';
  return jsonProblem(entry) ?? kind.toRow(key, entry, now);
}

/**
 * The rows of one file, and its problems by entry (`ships.json "dhow": size: ...`). A file none of
 * whose entries is of its kind, each being of the other, is one problem: the files were swapped.
 */
function readFile<TRow>(
  name: string,
  data: unknown,
  kind: TKind<TRow>,
  other: TKind<unknown>,
  now: Date,
): { rows: TRow[]; issues: TIssue[] } {
  const file = ZCatalogFile.safeParse(data);
  if (!file.success)
    return { rows: [], issues: [{ path: name, message: `must be a JSON object of ${kind.plural} keyed by id` }] };
  const rows: TRow[] = [];
  const issues: TIssue[] = [];
  const entries = Object.entries(file.data);
  for (const [key, entry] of entries) {
    const row = rowOf(kind, key, entry, now);
    if (typeof row === 'string') issues.push({ path: `${name} ${JSON.stringify(key)}`, message: row });
    else rows.push(row);
  }
  if (
    rows.length === 0 &&
    entries.length > 0 &&
    entries.every(([key, entry]) => typeof rowOf(other, key, entry, now) !== 'string')
  ) {
    const example = `${JSON.stringify(entries[0]![0])}: ${issues[0]!.message}`;
    const message = `holds ${other.plural}, not ${kind.plural}: each of its ${entries.length} entries reads as one of the ${other.plural}, none as one of the ${kind.plural} (${example}); are the two files swapped?`;
    return { rows, issues: [{ path: name, message }] };
  }
  return { rows, issues };
}

/**
 * Imports hull and item files of the community format, upserted in one transaction (a re-import
 * updates rows in place), or nothing: any entry that is not a usable hull (ships) or item (items)
 * is a 400 naming the file (`names`: as the caller knows them, e.g. the CLI's paths) and the entry.
 * `onlyChanged` (the community data set's import) leaves alone the rows whose stored entry is the
 * same: they are neither counted as updated nor written.
 */
export async function importCatalog(
  deps: TDepsOf<'db' | 'now'>,
  {
    files,
    names = { ships: 'ships.json', items: 'items.json' },
    onProgress,
    onlyChanged = false,
  }: {
    files: { ships: unknown; items: unknown };
    names?: { ships: string; items: string };
    onProgress?: TProgressListener;
    onlyChanged?: boolean;
  },
): Promise<TImportReport> {
  const now = deps.now();
  const hulls = readFile(names.ships, files.ships, HULLS, ITEMS, now);
  const items = readFile(names.items, files.items, ITEMS, HULLS, now);
  const issues = [...hulls.issues, ...items.issues];
  if (issues.length > 0) throw invalidFile(issues);
  let hullRows = hulls.rows;
  let itemRows = items.rows;
  const report: TImportReport = {
    hulls: { inserted: 0, updated: 0 },
    items: {
      inserted: 0,
      updated: 0,
      byCategory: { weapon: 0, armor: 0, furniture: 0, other: 0 },
      byType: Object.create(null) as Record<string, number>,
    },
  };
  for (const row of itemRows) {
    report.items.byCategory[row.category]++;
    report.items.byType[row.type] = (report.items.byType[row.type] ?? 0) + 1;
  }

  onProgress?.('checking catalog entries', hullRows.length + itemRows.length, hullRows.length + itemRows.length);
  await transaction(deps.db, async (tx) => {
    // Each id already stored, with its stored entry.
    const knownHulls = new Map<string, string>();
    const knownItems = new Map<string, string>();
    for (let start = 0; start < hullRows.length; start += CHUNK) {
      const ids = hullRows.slice(start, start + CHUNK).map((row) => row.id);
      for (const row of await tx
        .select({ id: catalogHulls.id, raw: catalogHulls.raw })
        .from(catalogHulls)
        .where(inArray(catalogHulls.id, ids))
        .all())
        knownHulls.set(row.id, row.raw);
    }
    for (let start = 0; start < itemRows.length; start += CHUNK) {
      const ids = itemRows.slice(start, start + CHUNK).map((row) => row.id);
      for (const row of await tx
        .select({ id: catalogItems.id, raw: catalogItems.raw })
        .from(catalogItems)
        .where(inArray(catalogItems.id, ids))
        .all())
        knownItems.set(row.id, row.raw);
    }
    if (onlyChanged) {
      hullRows = hullRows.filter((row) => knownHulls.get(row.id) !== row.raw);
      itemRows = itemRows.filter((row) => knownItems.get(row.id) !== row.raw);
    }
    for (let start = 0; start < hullRows.length; start += CHUNK) {
      await tx
        .insert(catalogHulls)
        .values(hullRows.slice(start, start + CHUNK))
        .onConflictDoUpdate({
          target: catalogHulls.id,
          set: excludedColumns([
            'size',
            'archetype',
            'hitpoints',
            'brace_strength',
            'half_sail',
            'full_sail',
            'travel_sail',
            'cargo_slots',
            'cargo_max_weight',
            'slots',
            'perks',
            'raw',
            'imported_at',
          ]),
        });
      onProgress?.('writing hulls', Math.min(hullRows.length, start + CHUNK), hullRows.length);
    }
    for (let start = 0; start < itemRows.length; start += CHUNK) {
      await tx
        .insert(catalogItems)
        .values(itemRows.slice(start, start + CHUNK))
        .onConflictDoUpdate({
          target: catalogItems.id,
          set: excludedColumns([
            'type',
            'category',
            'damage_per_shot',
            'projectiles_per_shot',
            'reload_speed_ms',
            'optimal_range',
            'armor',
            'damage_mitigation',
            'gear_score',
            'weight',
            'perks',
            'required_size',
            'raw',
            'imported_at',
          ]),
        });
      onProgress?.('writing items', Math.min(itemRows.length, start + CHUNK), itemRows.length);
    }
    report.hulls.inserted = hullRows.filter((row) => !knownHulls.has(row.id)).length;
    report.hulls.updated = hullRows.length - report.hulls.inserted;
    report.items.inserted = itemRows.filter((row) => !knownItems.has(row.id)).length;
    report.items.updated = itemRows.length - report.items.inserted;
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
  ];
  return lines;
}
