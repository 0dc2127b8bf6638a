// The answer of GET /assembly/attr: the figures of a loadout computed from the catalog
// (loadout.ts: computeAttributes), its problems, and the web client's settings of the assembly.
import { z } from 'zod';
import { VISIBILITIES } from './client-format';

/**
 * A JSON object the web client stored (its settings, its form of the loadout), answered as it is.
 * Output only. Checked as a plain object (what JSON.parse makes) and passed through, not copied key
 * by key as `z.record(z.string(), z.unknown())` copies it: every key of an unknown value passes
 * anyway, and the copy was half to two thirds of validating a search page (61 -> 23 to 34 µs for 20
 * assemblies, bench/README.md, issue 22 part 4). Documented exactly as that record is.
 */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
export const ZJsonObject = z
  .custom<Record<string, unknown>>(isJsonObject, { error: 'must be an object' })
  .meta({ override: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} } });

/** A way a loadout breaks the catalog's rules (loadout.ts: loadoutProblems). */
const ZProblem = z.object({
  code: z
    .enum(['unknownHull', 'unknownItem', 'wrongItemType', 'unknownSlot', 'slotOverfilled', 'hullTooSmall'])
    .meta({ description: 'The kind of problem' }),
  path: z.string().meta({ description: 'Where in the loadout, e.g. `weapons[2].itemId`' }),
  message: z.string().meta({ description: 'The problem in words' }),
});
export type TProblem = z.infer<typeof ZProblem>;
export type TProblemCode = TProblem['code'];

/** A figure of the catalog, null when the catalog does not give it. */
const figure = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${description}; null when the catalog lacks it` });

export const ZAttributes = z.object({
  uuid: z.string().meta({ description: 'The assembly' }),
  shipId: z.string().meta({ description: 'Its hull (catalog id)' }),
  hull: z
    .object({
      id: z.string().meta({ description: 'Catalog id of the hull' }),
      size: z.string().nullable().meta({ description: 'Hull size: extraSmall, small, medium or large' }),
      archetype: z.string().nullable().meta({ description: 'Hull archetype (dps, tank, support, cargo...)' }),
      hitpoints: figure('Hull hitpoints'),
      braceStrength: figure('Brace strength'),
      sailSpeed: z
        .object({
          halfSail: figure('Speed at half sail'),
          fullSail: figure('Speed at full sail'),
          travelSail: figure('Speed at travel sail'),
        })
        .meta({ description: 'Speeds by sail setting' }),
      cargo: z
        .object({ cargoSlots: figure('Cargo slots'), cargoMaxWeight: figure('Cargo weight limit') })
        .meta({ description: 'Cargo capacity' }),
    })
    .nullable()
    .meta({ description: 'The hull and its figures; null when the hull is not in the catalog' }),
  armor: z
    .object({
      itemId: z.string().meta({ description: 'Catalog id of the armor' }),
      armor: figure('Armor points'),
      damageMitigation: z
        .record(z.string(), z.number())
        .meta({ description: 'Damage reduction by damage type, as the catalog gives it' }),
    })
    .nullable()
    .meta({ description: 'The armor and its figures; null without armor' }),
  weapons: z
    .array(
      z.object({
        slot: z.string().meta({ description: 'Slot kind the weapon is mounted in' }),
        itemId: z.string().meta({ description: 'Catalog id of the weapon' }),
        type: z
          .string()
          .nullable()
          .meta({ description: 'Weapon type (culverin, long gun, mortar...); null when unknown' }),
        gunPorts: z.number().meta({ description: 'Mounts of this weapon in the slot (the hull gives them)' }),
        damagePerShot: figure('Damage of one projectile'),
        projectilesPerShot: figure('Projectiles per shot'),
        reloadSeconds: figure('Seconds between shots'),
        damagePerSecond: z
          .number()
          .meta({ description: 'damagePerShot × projectilesPerShot / reloadSeconds, for one mount' }),
        slotDamagePerSecond: z.number().meta({ description: 'damagePerSecond × gunPorts' }),
        optimalRange: figure('Optimal range'),
      }),
    )
    .meta({ description: 'Each mounted weapon with its figures' }),
  damagePerSecond: z
    .object({
      front: z.number().meta({ description: 'From the front slot' }),
      left: z.number().meta({ description: 'From the left broadside' }),
      right: z.number().meta({ description: 'From the right broadside' }),
      aft: z.number().meta({ description: 'From the aft slot' }),
      auxiliary: z.number().meta({ description: 'From the auxiliary weapon' }),
      total: z.number().meta({ description: 'All sides together' }),
    })
    .meta({ description: 'Damage per second by side (sum of slotDamagePerSecond)' }),
  optimalRange: z
    .object({
      min: z.number().meta({ description: 'Shortest optimal range of the weapons' }),
      max: z.number().meta({ description: 'Longest optimal range of the weapons' }),
    })
    .nullable()
    .meta({ description: 'Range band of the weapons; null when no weapon gives one' }),
  weight: z.number().meta({ description: 'Total weight of the mounted items' }),
  gearScore: z.number().meta({ description: 'Sum of the gear scores of hull and items' }),
  perks: z
    .array(
      z.object({
        perk: z.string().meta({ description: 'Perk name' }),
        source: z.enum(['hull', 'weapon', 'armor', 'furniture']).meta({ description: 'What gives it' }),
        itemId: z.string().meta({ description: 'Catalog id of the hull or item that gives it' }),
      }),
    )
    .meta({ description: 'Perks of the hull and the items' }),
  problems: z.array(ZProblem).meta({ description: "Where the loadout breaks the catalog's rules; empty when none" }),
  data: z
    .object({
      assembly: z
        .object({
          visibility: z.enum(VISIBILITIES).meta({ description: 'publicly or private' }),
          attr: ZJsonObject.meta({ description: 'Display settings (password always empty)' }),
        })
        .meta({ description: 'Visibility and display settings' }),
      wheel: z
        .object({ attr: ZJsonObject.meta({ description: "The wheel's settings as stored" }) })
        .meta({ description: "The web client's wheel settings" }),
      warehouse: z
        .object({ attr: ZJsonObject.meta({ description: "The warehouse's settings as stored" }) })
        .meta({ description: "The web client's warehouse settings" }),
      password: z.boolean().meta({
        description: 'The assembly has a password (never the password itself; assembly.attr.password is always empty)',
      }),
    })
    .meta({ description: "The web client's settings of the assembly, as its settings panel reads them" }),
});
/** The computed figures of a loadout (loadout.ts: computeAttributes), without the assembly's uuid, hull id and settings. */
export type TAttributes = Omit<z.infer<typeof ZAttributes>, 'uuid' | 'shipId' | 'data'>;
export type TWeaponFigures = TAttributes['weapons'][number];
