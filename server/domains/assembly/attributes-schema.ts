// The answer of GET /assembly/attr: the figures of a loadout computed from the catalog
// (loadout.ts: computeAttributes), its problems, and the web client's settings of the assembly.
import { z } from 'zod';
import { VISIBILITIES } from './client-format';

/** A JSON object the web client stored (its settings, its form of the loadout), answered as it is. */
export const ZJsonObject = z.record(z.string(), z.unknown());

/** A way a loadout breaks the catalog's rules (loadout.ts: loadoutProblems). */
const ZProblem = z.object({
  code: z.enum(['unknownHull', 'unknownItem', 'wrongItemType', 'unknownSlot', 'slotOverfilled', 'hullTooSmall']),
  path: z.string(),
  message: z.string(),
});
export type TProblem = z.infer<typeof ZProblem>;
export type TProblemCode = TProblem['code'];

export const ZAttributes = z.object({
  uuid: z.string(),
  shipId: z.string(),
  hull: z
    .object({
      id: z.string(),
      size: z.string().nullable(),
      archetype: z.string().nullable(),
      hitpoints: z.number().nullable(),
      braceStrength: z.number().nullable(),
      sailSpeed: z.object({ halfSail: z.number().nullable(), fullSail: z.number().nullable(), travelSail: z.number().nullable() }),
      cargo: z.object({ cargoSlots: z.number().nullable(), cargoMaxWeight: z.number().nullable() }),
    })
    .nullable(),
  armor: z.object({ itemId: z.string(), armor: z.number().nullable(), damageMitigation: z.record(z.string(), z.number()) }).nullable(),
  weapons: z.array(
    z.object({
      slot: z.string(),
      itemId: z.string(),
      type: z.string().nullable(),
      gunPorts: z.number(),
      damagePerShot: z.number().nullable(),
      projectilesPerShot: z.number().nullable(),
      reloadSeconds: z.number().nullable(),
      // damagePerShot x projectilesPerShot / reloadSeconds, for one mount.
      damagePerSecond: z.number(),
      // damagePerSecond x gunPorts.
      slotDamagePerSecond: z.number(),
      optimalRange: z.number().nullable(),
    }),
  ),
  damagePerSecond: z.object({ front: z.number(), left: z.number(), right: z.number(), aft: z.number(), auxiliary: z.number(), total: z.number() }),
  optimalRange: z.object({ min: z.number(), max: z.number() }).nullable(),
  weight: z.number(),
  gearScore: z.number(),
  perks: z.array(z.object({ perk: z.string(), source: z.enum(['hull', 'weapon', 'armor', 'furniture']), itemId: z.string() })),
  problems: z.array(ZProblem),
  data: z
    .object({
      assembly: z.object({ visibility: z.enum(VISIBILITIES), attr: ZJsonObject }),
      wheel: z.object({ attr: ZJsonObject }),
      warehouse: z.object({ attr: ZJsonObject }),
      password: z.boolean().meta({ description: 'The assembly has a password (never the password itself; assembly.attr.password is always empty)' }),
    })
    .meta({ description: "The web client's settings of the assembly, as its settings panel reads them" }),
});
/** The computed figures of a loadout (loadout.ts: computeAttributes), without the assembly's uuid, hull id and settings. */
export type TAttributes = Omit<z.infer<typeof ZAttributes>, 'uuid' | 'shipId' | 'data'>;
export type TWeaponFigures = TAttributes['weapons'][number];
