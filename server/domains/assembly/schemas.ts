// The assembly domain's zod schemas (inputs and outputs of its procedures) and the types inferred from them.
import { z } from 'zod';
import { zBool, zInt, zPage, zPageInput, ZTimestamp } from '../../schemas';
import { WEAPON_SLOT_KINDS } from '../catalog/kinds';

/**
 * A list reaches its first this many results (page × pageSize at most this; Elasticsearch's
 * max_result_window is the same 10,000): a deeper page is a 400 (the list input schema), since its
 * cost grows with its offset. Every order walks an index, so the deepest page reads at most this
 * many index entries plus one page of rows (issue 16).
 */
export const MAX_LIST_WINDOW = 10_000;

/**
 * Keyword search pages through at most this many matches, the newest ones (GitHub's search API has
 * the same limit). Walking the FTS5 index newest first and stopping here keeps a search's cost
 * bounded by the cap, not by how many assemblies match; `total` says at most this, `truncated` that
 * there were more.
 */
export const MAX_SEARCH_RESULTS = 1000;

export const ZAssemblyUuid = z
  .string({ error: 'is required' })
  .length(36, 'must be 36 characters')
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .transform((value) => value.toLowerCase())
  .meta({ description: 'Assembly identifier (v4 UUID, 36 characters)' });

const ZCatalogId = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const ZWeaponEntry = z.object({
  slot: z.enum(WEAPON_SLOT_KINDS, { error: `must be one of ${WEAPON_SLOT_KINDS.join(', ')}` }).meta({ description: 'Weapon slot kind; the hull must have it' }),
  itemId: ZCatalogId,
});

const ZName = z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters');
const ZTags = z.array(z.string().trim().min(1, 'must not be empty').max(24, 'must be at most 24 characters')).max(10, 'at most 10 tags');
const ZAssemblyPassword = z.string().min(4, 'must be at least 4 characters').max(256, 'must be at most 256 characters');

export const ZAssemblyDraft = z.object({
  name: ZName,
  shipId: ZCatalogId,
  weapons: z.array(ZWeaponEntry).max(20, 'at most 20 weapons'),
  armor: ZCatalogId.nullable().optional(),
  furnitures: z.array(ZCatalogId).max(20, 'at most 20 furnitures').optional(),
  description: z.string().max(2000, 'must be at most 2000 characters').optional(),
  tags: ZTags.optional(),
  isPublic: zBool().optional().meta({ description: 'Listed publicly; default true' }),
  password: ZAssemblyPassword.optional().meta({ description: 'Makes a private assembly readable by anyone who gives it (isPublic: false only)' }),
});
export type TAssemblyDraft = z.infer<typeof ZAssemblyDraft>;

export const ZAssemblyPatch = z
  .object({
    name: ZName.optional(),
    shipId: ZCatalogId.optional(),
    weapons: z.array(ZWeaponEntry).max(20, 'at most 20 weapons').optional(),
    armor: ZCatalogId.nullable().optional().meta({ description: 'null removes the armor' }),
    furnitures: z.array(ZCatalogId).max(20, 'at most 20 furnitures').optional(),
    description: z.string().max(2000, 'must be at most 2000 characters').optional(),
    tags: ZTags.optional(),
    isPublic: zBool().optional(),
    password: ZAssemblyPassword.nullable().optional().meta({ description: 'null removes the password' }),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: 'must change at least one field' });
export type TAssemblyPatch = z.infer<typeof ZAssemblyPatch>;

const ZRating = z.object({
  average: z.number().nullable().meta({ description: 'Plain mean of the 1-5 ratings; null when unrated' }),
  count: z.number().int(),
  smoothed: z.number().meta({ description: 'Bayesian mean used by sort=rating: (sum + 3 x 5) / (count + 5)' }),
});

export const ZAssemblySummary = z.object({
  uuid: z.string(),
  name: z.string(),
  shipId: z.string(),
  ship: z.object({ id: z.string(), size: z.string().nullable(), archetype: z.string().nullable() }).nullable(),
  description: z.string(),
  tags: z.array(z.string()),
  isPublic: z.boolean(),
  hasPassword: z.boolean(),
  creator: z.object({ id: z.string(), username: z.string() }),
  likes: z.number().int(),
  views: z.number().int(),
  rating: ZRating,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TAssemblySummary = z.infer<typeof ZAssemblySummary>;

export const ZAssembly = ZAssemblySummary.extend({
  weapons: z.array(z.object({ slot: z.string(), itemId: z.string() })),
  armor: z.string().nullable(),
  furnitures: z.array(z.string()),
});
/** The view of one assembly (GET /assembly/item, and the answer of every write that returns it). */
export type TAssemblyView = z.infer<typeof ZAssembly>;

export const ZTrashedAssembly = ZAssemblySummary.extend({ deletedAt: ZTimestamp, purgeAt: ZTimestamp });
export type TTrashedAssembly = z.infer<typeof ZTrashedAssembly>;

export const ZListInput = z
  .object({
    ...zPageInput(20),
    page: zPageInput(20).page.meta({ description: `1-based; page × pageSize must be at most ${MAX_LIST_WINDOW} (a deeper page is a 400)` }),
    keyword: z.string().max(100, 'must be at most 100 characters').optional().meta({ description: `Every word must be the start of a word of the name or tags of a public assembly (search as you type); only the newest ${MAX_SEARCH_RESULTS} matches are paged through (see truncated)` }),
    shipType: z.string().max(32, 'must be at most 32 characters').optional().meta({ description: 'Hull class: a size (extraSmall, small, medium, large) or archetype' }),
    sort: z.enum(['latest', 'hottest', 'rating'], { error: 'must be latest, hottest or rating' }).default('latest'),
  })
  // A page's cost grows with its offset: lists reach their first MAX_LIST_WINDOW results (issue 16).
  .refine((input) => input.page * input.pageSize <= MAX_LIST_WINDOW, {
    path: ['page'],
    error: `page × pageSize must be at most ${MAX_LIST_WINDOW}: a list reaches its first ${MAX_LIST_WINDOW} results; narrow it with keyword or shipType`,
  });
export type TListQuery = z.infer<typeof ZListInput>;
export type TListSort = TListQuery['sort'];

export const ZTrashInput = z.object({ ...zPageInput(20) });

export const ZAssemblyList = zPage(ZAssemblySummary).extend({
  truncated: z.boolean().meta({
    description: `True when the keyword matched more than ${MAX_SEARCH_RESULTS} assemblies: a keyword search pages through only the newest ${MAX_SEARCH_RESULTS} matches (pagination.total is then ${MAX_SEARCH_RESULTS}; later pages are empty). Always false without a keyword.`,
  }),
});
export type TAssemblyList = z.infer<typeof ZAssemblyList>;
export const ZTrashList = zPage(ZTrashedAssembly);

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
});
/** The computed figures of a loadout (loadout.ts: computeAttributes), without the assembly's uuid and hull id. */
export type TAttributes = Omit<z.infer<typeof ZAttributes>, 'uuid' | 'shipId'>;
export type TWeaponFigures = TAttributes['weapons'][number];

export const ZLikeInput = z.object({
  uuid: ZAssemblyUuid,
  like: zBool().default(true).meta({ description: 'true likes (idempotent), false takes the like back' }),
  password: z.string().max(256).optional(),
});

export const ZRateInput = z.object({
  uuid: ZAssemblyUuid,
  score: zInt({ min: 1, max: 5 }).meta({ description: '1 to 5; rating again replaces your previous score' }),
  password: z.string().max(256).optional(),
});

export const ZItemInput = z.object({
  uuid: ZAssemblyUuid,
  password: z.string().max(256).optional(),
  force: zBool().optional().meta({ description: 'Bypass the read cache' }),
});

export const ZAttributesInput = z.object({ uuid: ZAssemblyUuid, password: z.string().max(256).optional() });

export const ZLikeResult = z.object({ uuid: z.string(), liked: z.boolean(), likes: z.number().int() });

export const ZRateResult = z.object({
  uuid: z.string(),
  yourScore: z.number().int(),
  rating: z.object({ average: z.number().nullable(), count: z.number().int(), smoothed: z.number() }),
});

export const IF_MATCH_DESCRIPTION =
  'Optimistic concurrency: the ETag of GET /assembly/item (or of an earlier edit), or a comma-separated list of them, or *. ' +
  'The edit is made only if the assembly still has it; otherwise a 412 and nothing is written. The ETag does not change with the view count.';

export const ZEditInput = z.object({
  uuid: ZAssemblyUuid,
  data: ZAssemblyPatch,
  ifMatch: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional().meta({ description: IF_MATCH_DESCRIPTION }),
});

export const ZUuidInput = z.object({ uuid: ZAssemblyUuid });

export const ZTrashResult = z.object({ uuid: z.string(), deletedAt: ZTimestamp, purgeAt: ZTimestamp });
