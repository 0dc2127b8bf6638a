/**
 * Schemas of the game catalog: the community data format (glow-prow-data / snbdata) read on import,
 * and hulls, items and the import report as the API shows them.
 * The format drifts between releases (`hitpoints` or `hitPoints`, `blueprint` as a string, a list or
 * a nested list, fields that are absent), so the community schemas only insist on what a loadout needs
 * and keep everything else verbatim in `raw`.
 */
import { z } from 'zod';
import { zPage, zPageInput } from '../../schemas';
import { textProblem } from '../../text';
import { HULL_SIZES, ITEM_CATEGORIES } from './kinds';

export const ZItemCategory = z
  .enum(ITEM_CATEGORIES)
  .meta({ description: 'weapon, armor, furniture, or other (consumables...: no loadout can use them)' });
export type TItemCategory = z.infer<typeof ZItemCategory>;

/** A finite number, or a numeric string; anything else (absent, null, "n/a") reads as absent. */
const zLooseNumber = z
  .unknown()
  .optional()
  .transform((value) => {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof number === 'number' && Number.isFinite(number) ? number : null;
  });

/** The longest text of the data set is 41 characters (a blueprint source); this leaves room. */
const MAX_IMPORTED_TEXT = 200;

/** True when `text` passes the one text rule (server/text.ts); otherwise its problem is added at `path`. */
function isImportedText(text: string, check: z.RefinementCtx, path: (string | number)[] = []): boolean {
  const problem = textProblem(text, { max: MAX_IMPORTED_TEXT });
  if (problem !== undefined) check.addIssue({ code: 'custom', path, message: problem });
  return problem === undefined;
}

/** A string, or absent: other values read as absent; a string breaking the text rule is refused. */
const zLooseString = z
  .unknown()
  .optional()
  .transform((value, check) =>
    typeof value === 'string' && value !== '' && isImportedText(value, check) ? value : null,
  );

/** The strings of a list (other entries left out), each under the text rule. */
const zStringList = z
  .unknown()
  .optional()
  .transform((value, check) =>
    Array.isArray(value)
      ? value.filter(
          (entry, index): entry is string => typeof entry === 'string' && isImportedText(entry, check, [index]),
        )
      : [],
  );

/** `blueprint`: a string, a list of strings or a nested list; flattened to the sources it names. */
export const ZBlueprint = z
  .unknown()
  .optional()
  .transform((value, check): string[] => {
    const out: string[] = [];
    const walk = (node: unknown, depth: number) => {
      if (typeof node === 'string') {
        if (isImportedText(node, check)) out.push(node);
      } else if (Array.isArray(node) && depth < 8) for (const child of node) walk(child, depth + 1);
    };
    walk(value, 0);
    return out;
  });

/** `[count, perDeck]` where perDeck is a number or `{ top, lower? }`; gunPorts is the number of mounts. */
export const ZSlot = z
  .tuple([
    z.number().int().min(0).max(100),
    z
      .union([
        z.number().min(0),
        z.looseObject({ top: z.number().min(0).optional(), lower: z.number().min(0).optional() }),
      ])
      .optional(),
  ])
  .rest(z.unknown())
  .transform(([count, perDeck]) => ({
    count,
    gunPorts:
      perDeck === undefined ? 1 : typeof perDeck === 'number' ? perDeck : (perDeck.top ?? 0) + (perDeck.lower ?? 0),
  }));

export type TSlot = z.output<typeof ZSlot>;

/** A hull has a size and slots (every hull of the data set does; an item has neither): what tells ships.json apart. */
export const ZCommunityHull = z.looseObject({
  id: z.string().min(1).optional(),
  size: z.enum(HULL_SIZES, { error: 'must be extraSmall, small, medium or large' }),
  archetype: zLooseString,
  hitpoints: zLooseNumber,
  hitPoints: zLooseNumber,
  braceStrength: zLooseNumber,
  sailSpeed: z
    .looseObject({ halfSail: zLooseNumber, fullSail: zLooseNumber, travelSail: zLooseNumber })
    .optional()
    .catch(undefined),
  cargo: z.looseObject({ cargoSlots: zLooseNumber, cargoMaxWeight: zLooseNumber }).optional().catch(undefined),
  slots: z.record(z.string(), z.unknown(), { error: 'must be an object of slot kinds, each [count, gun ports]' }),
  perks: zStringList,
  blueprint: ZBlueprint,
});

/** An item has a type; "ships" is the type the data set gives its hulls, so such an entry is a hull. */
export const ZCommunityItem = z.looseObject({
  id: z.string().min(1).optional(),
  type: z
    .string({ error: 'is required (a string such as culverin, armor, consumable)' })
    .min(1, 'must not be empty')
    .refine((type) => type !== 'ships', 'is "ships": the entry is a hull, not an item')
    .superRefine((type, check) => void isImportedText(type, check)),
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

/** Both files are objects keyed by id; their entries are checked one by one, so that every problem is listed. */
export const ZCatalogFile = z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by id' });

const ZNumberOrNull = z.number().nullable();

/** `…; null when the catalog lacks it`: the community format's fields are often absent. */
const lacking = (what: string) => ZNumberOrNull.meta({ description: `${what}; null when the catalog lacks it` });

/** A hull in short, as an assembly's answers show it (HullSummary in the OpenAPI document; Hull extends it). */
export const ZHullSummary = z
  .object({
    id: z
      .string()
      .meta({ description: 'The hull: its id in the catalog (its key in ships.json), what assemblies give as shipId' }),
    size: z
      .string()
      .nullable()
      .meta({ description: 'extraSmall, small, medium or large; null when the catalog lacks it' }),
    archetype: z
      .string()
      .nullable()
      .meta({ description: 'Hull archetype (dps, tank, support, cargo...); null when the catalog lacks it' }),
  })
  .meta({ description: 'A hull as the catalog describes it' });

export const ZHullRecord = z.object({
  ...ZHullSummary.shape,
  hitpoints: lacking('Hitpoints (hitpoints or hitPoints in the data)'),
  braceStrength: lacking('Brace strength'),
  halfSail: lacking('Speed at half sail'),
  fullSail: lacking('Speed at full sail'),
  travelSail: lacking('Speed at travel sail'),
  cargoSlots: lacking('Cargo slots'),
  cargoMaxWeight: lacking('Cargo weight limit'),
  slots: z
    .record(
      z.string(),
      z.object({
        count: z.number().meta({ description: 'How many items the slot kind takes' }),
        gunPorts: z
          .number()
          .meta({ description: 'A weapon placed in the slot kind is mounted on each (1 when the data gives none)' }),
      }),
    )
    .meta({
      description: 'By slot kind (frontWeapon, ..., furniture): items and gun ports; unreadable slots are left out',
    }),
  perks: z.array(z.string()).meta({ description: "The hull's perks" }),
});
export type THullRecord = z.infer<typeof ZHullRecord>;

export const ZItemRecord = z.object({
  id: z.string().meta({ description: 'The item (its key in items.json), as assemblies name it' }),
  type: z.string().meta({ description: 'Its type as imported (culverin, armor, majorFurniture, consumable...)' }),
  category: ZItemCategory,
  damagePerShot: lacking('Damage of one projectile'),
  projectilesPerShot: lacking('Projectiles per shot (counted as 1 when null)'),
  reloadSpeedMs: lacking("Reload time in milliseconds (the data's reloadSpeed)"),
  optimalRange: lacking('Optimal range in metres'),
  armor: lacking('Armor points (armor items)'),
  damageMitigation: z
    .record(z.string(), z.number())
    .nullable()
    .meta({ description: 'Damage reduction by damage kind, as fractions; null when the catalog lacks it' }),
  gearScore: lacking('Gear score'),
  weight: lacking('Weight'),
  perks: z.array(z.string()).meta({ description: "The item's perks" }),
  requiredSize: z
    .string()
    .nullable()
    .meta({ description: 'Smallest hull size that may carry it (extraSmall < small < medium < large); null: any' }),
});
export type TItemRecord = z.infer<typeof ZItemRecord>;

export const ZHullQuery = z
  .strictObject({
    ...zPageInput(50),
    size: z
      .enum(HULL_SIZES, { error: 'must be extraSmall, small, medium or large' })
      .optional()
      .meta({ description: 'Only hulls of this size' }),
  })
  .prefault({});
export type THullQuery = z.infer<typeof ZHullQuery>;

export const ZItemQuery = z
  .strictObject({
    ...zPageInput(50),
    category: z
      .enum(ITEM_CATEGORIES, { error: 'must be weapon, armor, furniture or other' })
      .optional()
      .meta({ description: 'Only items of this category: weapon, armor, furniture or other' }),
    type: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'Item type, e.g. culverin, majorFurniture, consumable' }),
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

const ZCount = z.object({
  inserted: z.number().int().meta({ description: 'Entries whose id was new' }),
  updated: z.number().int().meta({ description: 'Entries whose id existed, updated in place' }),
});

const categoryCount = (category: string) =>
  z
    .number()
    .int()
    .meta({ description: `Items imported of category ${category}` });

export const ZImportReport = z.object({
  hulls: ZCount.meta({ description: 'Hulls imported from ships (ships.json)' }),
  items: ZCount.extend({
    byCategory: z
      .object({
        weapon: categoryCount('weapon'),
        armor: categoryCount('armor'),
        furniture: categoryCount('furniture'),
        other: categoryCount('other (no loadout can use them)'),
      })
      .meta({ description: 'Items imported, by category' }),
    byType: z.record(z.string(), z.number().int()).meta({ description: 'Items imported, by type (culverin: 12, ...)' }),
  }).meta({ description: 'Items imported from items (items.json)' }),
});
export type TImportReport = z.infer<typeof ZImportReport>;
