/**
 * Schemas of the game catalog: the community data format (glow-prow-data / snbdata) read on import,
 * and hulls, items and the import report as the API shows them.
 * The format drifts between releases (`hitpoints` or `hitPoints`, `blueprint` as a string, a list or
 * a nested list, fields that are absent), so the community schemas only insist on what a loadout needs
 * and keep everything else verbatim in `raw`.
 */
import { z } from 'zod';
import { zPage, zPageInput } from '../../schemas';
import { HULL_SIZES, ITEM_CATEGORIES } from './kinds';

export const ZItemCategory = z.enum(ITEM_CATEGORIES);
export type TItemCategory = z.infer<typeof ZItemCategory>;

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
export const ZSlot = z
  .tuple([z.number().int().min(0).max(100), z.union([z.number().min(0), z.looseObject({ top: z.number().min(0).optional(), lower: z.number().min(0).optional() })]).optional()])
  .rest(z.unknown())
  .transform(([count, perDeck]) => ({
    count,
    gunPorts: perDeck === undefined ? 1 : typeof perDeck === 'number' ? perDeck : (perDeck.top ?? 0) + (perDeck.lower ?? 0),
  }));

export type TSlot = z.output<typeof ZSlot>;

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

const ZNumberOrNull = z.number().nullable();

export const ZHullRecord = z.object({
  id: z.string(),
  size: z.string().nullable(),
  archetype: z.string().nullable(),
  hitpoints: ZNumberOrNull,
  braceStrength: ZNumberOrNull,
  halfSail: ZNumberOrNull,
  fullSail: ZNumberOrNull,
  travelSail: ZNumberOrNull,
  cargoSlots: ZNumberOrNull,
  cargoMaxWeight: ZNumberOrNull,
  slots: z.record(z.string(), z.object({ count: z.number(), gunPorts: z.number() })).meta({ description: 'Slot kind: how many items, over how many gun ports' }),
  perks: z.array(z.string()),
});
export type THullRecord = z.infer<typeof ZHullRecord>;

export const ZItemRecord = z.object({
  id: z.string(),
  type: z.string(),
  category: ZItemCategory,
  damagePerShot: ZNumberOrNull,
  projectilesPerShot: ZNumberOrNull,
  reloadSpeedMs: ZNumberOrNull,
  optimalRange: ZNumberOrNull,
  armor: ZNumberOrNull,
  damageMitigation: z.record(z.string(), z.number()).nullable(),
  gearScore: ZNumberOrNull,
  weight: ZNumberOrNull,
  perks: z.array(z.string()),
  requiredSize: z.string().nullable(),
});
export type TItemRecord = z.infer<typeof ZItemRecord>;

export const ZHullQuery = z
  .strictObject({ ...zPageInput(50), size: z.enum(HULL_SIZES, { error: 'must be extraSmall, small, medium or large' }).optional() })
  .prefault({});
export type THullQuery = z.infer<typeof ZHullQuery>;

export const ZItemQuery = z
  .strictObject({
    ...zPageInput(50),
    category: z.enum(ITEM_CATEGORIES, { error: 'must be weapon, armor, furniture or other' }).optional(),
    type: z.string().min(1).max(64).optional().meta({ description: 'Item type, e.g. culverin, majorFurniture, consumable' }),
  })
  .prefault({});
export type TItemQuery = z.infer<typeof ZItemQuery>;

export const ZHullPage = zPage(ZHullRecord);
export const ZItemPage = zPage(ZItemRecord);

/** The admin import's body: the contents of ships.json and items.json. */
export const ZCatalogImportInput = z.strictObject({
  ships: z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by hull id' }),
  items: z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by item id' }),
});

const ZCount = z.object({ inserted: z.number().int(), updated: z.number().int() });

export const ZImportReport = z.object({
  hulls: ZCount,
  items: ZCount.extend({
    byCategory: z.object({ weapon: z.number().int(), armor: z.number().int(), furniture: z.number().int(), other: z.number().int() }),
    byType: z.record(z.string(), z.number().int()),
  }),
  skipped: z.array(z.object({ file: z.enum(['ships', 'items']), id: z.string(), reason: z.string() })),
});
export type TImportReport = z.infer<typeof ZImportReport>;
