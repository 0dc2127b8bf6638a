import { z } from 'zod';
import { zPage, zPageInput } from '../../schemas';
import { listHulls, listItems } from './service';
import { publicProcedure, router } from '../../trpc';

const ZNumberOrNull = z.number().nullable();

const ZHull = z.object({
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

const ZItem = z.object({
  id: z.string(),
  type: z.string(),
  category: z.enum(['weapon', 'armor', 'furniture', 'other']),
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

// The catalog changes only on import: shared caches may keep it a few minutes.
const CATALOG_CACHE = { cacheControl: 'public, max-age=300' };

/** Read side of the game catalog, so loadout builders know the ids and slots publish accepts. */
export const catalogRouter = router({
  listHulls: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/catalog/hulls', tags: ['assembly'], protect: false, summary: 'Hulls of the game catalog' }, http: CATALOG_CACHE })
    .input(z.object({ ...zPageInput(50), size: z.enum(['extraSmall', 'small', 'medium', 'large'], { error: 'must be extraSmall, small, medium or large' }).optional() }).prefault({}))
    .output(zPage(ZHull))
    .query(({ input, ctx }) => listHulls(ctx.db, input)),

  listItems: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/catalog/items', tags: ['assembly'], protect: false, summary: 'Items of the game catalog' }, http: CATALOG_CACHE })
    .input(
      z.object({
        ...zPageInput(50),
        category: z.enum(['weapon', 'armor', 'furniture', 'other'], { error: 'must be weapon, armor, furniture or other' }).optional(),
        type: z.string().min(1).max(64).optional().meta({ description: 'Item type, e.g. culverin, majorFurniture, consumable' }),
      }).prefault({}),
    )
    .output(zPage(ZItem))
    .query(({ input, ctx }) => listItems(ctx.db, input)),
});
