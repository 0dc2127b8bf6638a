// The assembly domain's zod schemas (inputs and outputs of its procedures) and the types inferred from
// them. An input accepts the contract's form and the web client's (client-schemas.ts normalises the
// latter); the answers are in the web client's shapes (issue 18).
import { z } from 'zod';
import { zBool, zInt, zPageInput, ZPagination, ZTimestamp } from '../../schemas';
import { WEAPON_SLOT_KINDS } from '../catalog/kinds';
import { ZHullSummary } from '../catalog/schemas';
import { ZJsonObject } from './attributes-schema';
import { VISIBILITIES } from './client-format';
import {
  checkClientListQuery,
  clientFields,
  clientListFields,
  fromClientForm,
  LIST_SORTS,
  rangeDescription,
  rangeOf,
  sortOfField,
  type TDateRange,
  type TListOrder,
  type TListSort,
} from './client-schemas';
import {
  ZAssemblyPassword,
  ZAssemblyUuid,
  ZCatalogId,
  ZDescription,
  ZName,
  ZTags,
  type TAssemblyDraft,
  type TAssemblyPatch,
} from './fields';

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

export { ZAssemblyUuid, type TAssemblyDraft, type TAssemblyPatch } from './fields';
export { ZAttributesEditInput } from './client-schemas';
export type { TDateRange, TListOrder, TListSort } from './client-schemas';

export const ZWeaponEntry = z.strictObject({
  slot: z
    .enum(WEAPON_SLOT_KINDS, { error: `must be one of ${WEAPON_SLOT_KINDS.join(', ')}` })
    .meta({ description: 'Weapon slot kind; the hull must have it' }),
  itemId: ZCatalogId.meta({ description: 'Catalog id of the weapon' }),
});

/** Fields of the contract's form of publish and of an edit's data. */
const contractFields = {
  name: ZName.meta({ description: 'Its name, 1-80 characters' }),
  shipId: ZCatalogId,
  weapons: z.array(ZWeaponEntry).max(20, 'at most 20 weapons'),
  armor: ZCatalogId.nullable().optional(),
  furnitures: z.array(ZCatalogId).max(20, 'at most 20 furnitures').optional(),
  description: ZDescription.optional().meta({ description: 'Notes, up to 2000 characters' }),
  tags: ZTags.optional().meta({ description: 'Up to 10 tags of 1-24 characters' }),
  isPublic: zBool().optional().meta({ description: 'Listed publicly; default true' }),
};

export const ZAssemblyDraft = z
  .strictObject({
    ...contractFields,
    shipId: contractFields.shipId.optional().meta({ description: 'Base hull; required unless assembly.data is given' }),
    weapons: contractFields.weapons.optional().meta({ description: 'Required unless assembly.data is given' }),
    password: ZAssemblyPassword.optional().meta({
      description: 'Makes a private assembly readable by anyone who gives it (isPublic: false only)',
    }),
    ...clientFields,
    uuid: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'Sent by the web client with a draft; ignored: publishing always assigns a new uuid' }),
  })
  .transform((input, ctx): TAssemblyDraft => {
    const { assembly, wheel, warehouse, uuid: _uuid, ...contract } = input;
    const fromClient = fromClientForm({ assembly, wheel, warehouse, tags: contract.tags }, ctx, false);
    const draft = { ...contract, ...fromClient } as TAssemblyDraft;
    if (contract.password !== undefined && fromClient.password !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'give the password once (password or assembly.attr.password)',
      });
    if (assembly?.data !== undefined && (contract.shipId !== undefined || contract.weapons !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['assembly', 'data'],
        message: 'give the loadout once: shipId and weapons, or assembly.data',
      });
    }
    if (draft.shipId === undefined)
      ctx.addIssue({ code: 'custom', path: ['shipId'], message: 'is required (or assembly.data.shipSlot)' });
    if (draft.weapons === undefined) {
      if (assembly?.data === undefined)
        ctx.addIssue({ code: 'custom', path: ['weapons'], message: 'is required (or assembly.data)' });
      draft.weapons = [];
    }
    return draft;
  });

/** The contract's form of an edit's `data` (AssemblyPatch in the OpenAPI document). */
export const ZContractPatch = z
  .strictObject({
    name: contractFields.name.optional(),
    shipId: ZCatalogId.optional().meta({ description: 'Base hull (catalog id); the weapons must fit it' }),
    weapons: contractFields.weapons.optional().meta({ description: 'Replaces all the weapons' }),
    armor: ZCatalogId.nullable().optional().meta({ description: 'null removes the armor' }),
    furnitures: contractFields.furnitures.meta({ description: 'Replaces all the furniture (catalog ids)' }),
    description: contractFields.description,
    tags: contractFields.tags,
    isPublic: contractFields.isPublic,
    password: ZAssemblyPassword.nullable().optional().meta({ description: 'null removes the password' }),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'must change at least one field',
  });

export const IF_MATCH_DESCRIPTION =
  'Optimistic concurrency: the ETag of GET /assembly/item (or of an earlier edit), or a comma-separated list of them, or *. ' +
  'The edit is made only if the assembly still has it; otherwise a 412 and nothing is written. The ETag does not change with the view count.';

/**
 * POST /assembly/edit: the contract's form `{uuid, data}` (data: the fields to change), or the
 * client's `{uuid, name, description, assembly, wheel, warehouse}` (the same fields as publish).
 */
export const ZEditInput = z
  .strictObject({
    uuid: ZAssemblyUuid,
    data: ZContractPatch.optional().meta({
      description: "The contract's form: the fields to change (required unless the web client's fields are given)",
    }),
    ifMatch: z
      .string()
      .min(1, 'must not be empty')
      .max(1024, 'must be at most 1024 characters')
      .optional()
      .meta({ description: 'The If-Match header, as a field: the same values and rules' }),
    name: ZName.optional().meta({
      description: "The web client's form (with description, tags, assembly, wheel, warehouse)",
    }),
    description: contractFields.description,
    tags: contractFields.tags,
    ...clientFields,
  })
  .transform((input, ctx): { uuid: string; data: TAssemblyPatch; ifMatch?: string } => {
    const { uuid, data, ifMatch, assembly, wheel, warehouse, name, description, tags } = input;
    const clientGiven = [name, description, tags, assembly, wheel, warehouse].some((value) => value !== undefined);
    if (data !== undefined && clientGiven)
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: "give either data (the contract's form) or the web client's fields, not both",
      });
    if (data === undefined && !clientGiven) ctx.addIssue({ code: 'custom', path: ['data'], message: 'is required' });
    const patch: TAssemblyPatch = data ?? {
      ...fromClientForm({ assembly, wheel, warehouse, tags }, ctx, true),
      name,
      description,
    };
    for (const key of Object.keys(patch) as (keyof TAssemblyPatch)[]) if (patch[key] === undefined) delete patch[key];
    return { uuid, data: patch, ...(ifMatch !== undefined ? { ifMatch } : {}) };
  });

/** An assembly's ratings; named in the OpenAPI document as AssemblyRating (the item, list items, the trash and POST /assembly/rate answer it). */
export const ZRating = z
  .object({
    average: z.number().nullable().meta({ description: 'Plain mean of the 1-5 ratings; null when unrated' }),
    count: z.number().int().meta({ description: 'How many users rated it' }),
    smoothed: z.number().meta({ description: 'Bayesian mean used by sort=rating: (sum + 3 x 5) / (count + 5)' }),
  })
  .meta({ description: 'Its 1-5 ratings (POST /assembly/rate)' });

/** The web client's wheel or warehouse part of an assembly, as answered (ClientPart in the OpenAPI document). */
export const ZClientPartOut = z
  .object({
    attr: ZJsonObject.meta({ description: 'Settings as the web client stored them; {} when none' }),
    data: z.unknown().meta({ description: 'As the web client stored it; null when none' }),
  })
  .meta({ description: "A part of the web client's form (wheel or warehouse), kept verbatim" });

/** The web client's form of a readable assembly, as answered (ClientAssembly in the OpenAPI document). */
export const ZClientAssemblyOut = z
  .object({
    visibility: z.enum(VISIBILITIES).meta({ description: 'publicly (listed) or private' }),
    tags: z.array(z.string()).meta({ description: 'The tags, again, where the web client reads them' }),
    attr: ZJsonObject.meta({
      description: 'Display settings as the web client stored them (never the password); {} when none',
    }),
    data: ZJsonObject.meta({
      description:
        "The loadout in the web client's form: as it sent it, or built from shipId, weapons, armor and furnitures",
    }),
  })
  .meta({ description: "The web client's form of the assembly" });

/** A weapon of an assembly, by slot kind, as answered (AssemblyWeapon in the OpenAPI document). */
export const ZAssemblyWeapon = z
  .object({
    slot: z.string().meta({ description: 'Slot kind (leftSideWeapon, frontWeapon, ...)' }),
    itemId: z.string().meta({ description: 'Catalog id of the weapon' }),
  })
  .meta({ description: 'A weapon mounted on the assembly, by slot kind' });

/** What a list item and an item share (issue 18: the web client's names). */
const summaryFields = {
  uuid: z.string().meta({ description: 'The assembly (v4 UUID)' }),
  name: z.string().meta({ description: 'Its name, 1-80 characters' }),
  description: z.string().meta({ description: "The creator's notes; '' when none" }),
  tags: z.array(z.string()).meta({ description: 'Up to 10 tags, as given' }),
  userId: z
    .string()
    .nullable()
    .meta({ description: "The creator's id; null when the creator chose to be anonymous (attr.isAnonymous)" }),
  username: z.string().meta({ description: "The creator's name; '' when anonymous" }),
  userAvatar: z.string().nullable().meta({
    description:
      "The creator's avatar (an https URL, or /api/user/avatar/{userId}?v=… for an uploaded picture); null without one or when anonymous",
  }),
  likes: z.number().int().meta({ description: 'How many users like it' }),
  views: z.number().int().meta({
    description: 'How many times it was read (GET /assembly/item); counted in batches, so a read shows a little later',
  }),
  forkCount: z.number().int().meta({
    description:
      'How many assemblies were forked from this one by other users (POST /assembly/fork) and are not purged; trashed forks still count',
  }),
  rating: ZRating,
  shipId: z.string().meta({ description: 'Its hull (catalog id)' }),
  ship: ZHullSummary.nullable().meta({
    description: 'The hull as the catalog describes it; null when the hull is not in the catalog',
  }),
  createdTime: ZTimestamp.meta({ description: 'When it was published' }),
  updatedTime: ZTimestamp.meta({ description: 'When it was last edited (its publication time until then)' }),
};

/** What every answer of an assembly holds (AssemblyCore in the OpenAPI document: AssemblySummary and Assembly are it and their own fields). */
export const ZAssemblyCore = z.object(summaryFields).meta({ description: 'What AssemblySummary and Assembly share' });

/** One assembly of a list (GET /assembly/list): its loadout in the web client's form under `assembly`, its display settings under `attr`. */
export const ZAssemblySummary = z.object({
  ...summaryFields,
  isLiked: z.boolean().meta({ description: 'You like it (false for anonymous callers)' }),
  attr: ZJsonObject.meta({
    description: "The web client's display settings (assemblyUseVersion, isShowItemName, ...); {} when none",
  }),
  assembly: ZJsonObject.meta({
    description:
      "The loadout in the web client's form (shipSlot, weaponSlots, weaponDirections, secondaryWeaponSlots, armorSlot, displaySlots, ...)",
  }),
});
export type TAssemblySummary = z.infer<typeof ZAssemblySummary>;

/** One readable assembly (GET /assembly/item, and the answer of every write that returns it). */
export const ZAssembly = z.object({
  ...summaryFields,
  assembly: ZClientAssemblyOut,
  wheel: ZClientPartOut.meta({ description: "The web client's wheel part, kept verbatim" }),
  warehouse: ZClientPartOut.meta({ description: "The web client's warehouse part, kept verbatim" }),
  weapons: z.array(ZAssemblyWeapon).meta({ description: 'The weapons by slot kind' }),
  armor: z.string().nullable().meta({ description: 'Catalog id of the armor; null without one' }),
  furnitures: z.array(z.string()).meta({ description: 'Catalog ids of the furniture' }),
  isVisibility: z.literal(true).meta({ description: 'The content is readable (false only on the locked answer)' }),
  isPassword: z
    .literal(false)
    .meta({ description: 'A password is needed to read the content (true only on the locked answer)' }),
  isOwner: z.boolean().meta({ description: 'The caller is the creator' }),
  isLiked: z.boolean().meta({ description: 'The caller likes it (false for anonymous callers and for the creator)' }),
  cloningUuid: z.string().nullable().meta({
    description:
      'The uuid of the assembly this one was forked from (POST /assembly/fork), while that one exists (in the trash too); null when not a fork, or once the original is purged',
  }),
});
/** The view of one assembly (GET /assembly/item, and the answer of every write that returns it). */
export type TAssemblyView = z.infer<typeof ZAssembly>;

/** A private assembly with a password, read without it: no content, so the client shows its password prompt. */
export const ZLockedAssembly = z.object({
  uuid: z.string().meta({ description: 'The assembly' }),
  isVisibility: z.literal(false).meta({ description: 'The content is not readable without the password' }),
  isPassword: z.literal(true).meta({ description: 'Send the password (password=...) to read it' }),
  isOwner: z.literal(false).meta({ description: 'The caller is not the creator' }),
});
export type TLockedAssembly = z.infer<typeof ZLockedAssembly>;
export const ZAssemblyItem = z.union([ZAssembly, ZLockedAssembly]);
export type TAssemblyItem = z.infer<typeof ZAssemblyItem>;

/** The answer of publish: the assembly, with its uuid also under the key the web client reads (`assembly.uuid`). */
export const ZPublished = ZAssembly.extend({
  'assembly.uuid': z
    .string()
    .meta({ description: 'The uuid again, under the key the web client reads after publishing' }),
});

export const ZTrashedAssembly = ZAssemblySummary.extend({
  deletedAt: ZTimestamp.meta({ description: 'When it was deleted (moved to the trash)' }),
  purgeAt: ZTimestamp.meta({ description: 'When it is purged for good unless restored' }),
});
export type TTrashedAssembly = z.infer<typeof ZTrashedAssembly>;

/** The one canonical list query the service takes: the contract's form and the client's normalised into it. */
export type TListQuery = {
  page: number;
  pageSize: number;
  keyword?: string;
  shipType?: string;
  sort: TListSort;
  order: TListOrder;
  created?: TDateRange;
  updated?: TDateRange;
};

export const ZListInput = z
  .strictObject({
    ...zPageInput(20),
    page: zPageInput(20).page.meta({
      description: `1-based; page × pageSize must be at most ${MAX_LIST_WINDOW} (a deeper page is a 400)`,
    }),
    keyword: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({
        description: `Every word must be the start of a word of the name or tags of a public assembly (search as you type); only the newest ${MAX_SEARCH_RESULTS} matches are paged through (see truncated)`,
      }),
    shipType: z
      .string()
      .max(32, 'must be at most 32 characters')
      .optional()
      .meta({ description: 'Hull class: a size (extraSmall, small, medium, large) or archetype' }),
    sort: z
      .enum(LIST_SORTS, { error: 'must be latest, hottest, rating or updated' })
      .meta({
        description:
          'latest (the default), hottest, rating or updated (last edited first); sortOrder=asc reverses any of them',
      })
      .optional(),
    ...clientListFields,
    createdStart: clientListFields.createdStart.meta({
      description: rangeDescription('createdTime', MAX_SEARCH_RESULTS),
    }),
    updatedStart: clientListFields.updatedStart.meta({
      description: rangeDescription('updatedTime', MAX_SEARCH_RESULTS),
    }),
    createdEnd: clientListFields.createdEnd.meta({
      description: 'The last day of the createdTime range: through the 24 hours from this instant (see createdStart)',
    }),
    updatedEnd: clientListFields.updatedEnd.meta({
      description: 'The last day of the updatedTime range: through the 24 hours from this instant (see updatedStart)',
    }),
  })
  .superRefine((input, ctx) => {
    // A page's cost grows with its offset: lists reach their first MAX_LIST_WINDOW results (issue 16).
    if (input.page * input.pageSize > MAX_LIST_WINDOW) {
      ctx.addIssue({
        code: 'custom',
        path: ['page'],
        message: `page × pageSize must be at most ${MAX_LIST_WINDOW}: a list reaches its first ${MAX_LIST_WINDOW} results; narrow it with keyword or shipType`,
      });
    }
    checkClientListQuery(input, ctx);
  })
  .transform((input): TListQuery => {
    const { page, pageSize, keyword, shipType, sort, sortField, sortOrder } = input;
    const created = rangeOf(input.createdStart, input.createdEnd);
    const updated = rangeOf(input.updatedStart, input.updatedEnd);
    return {
      page,
      pageSize,
      ...(keyword !== undefined ? { keyword } : {}),
      ...(shipType !== undefined ? { shipType } : {}),
      sort: sort ?? (sortField !== undefined ? sortOfField(sortField) : undefined) ?? 'latest',
      order: sortOrder ?? 'desc',
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
    };
  });

export const ZTrashInput = z.strictObject({ ...zPageInput(20) });

export const ZAssemblyList = z.object({
  data: z.array(ZAssemblySummary).meta({ description: "The page's assemblies" }),
  pagination: ZPagination,
  truncated: z.boolean().meta({
    description:
      `True when the keyword matched more than ${MAX_SEARCH_RESULTS} assemblies, or a date range (without a keyword) held more: a keyword search pages through only its newest ${MAX_SEARCH_RESULTS} matches, ` +
      `a range through its first ${MAX_SEARCH_RESULTS} in the order asked when it is on the sorted field (createdTime for latest, updatedTime for updated), its newest ${MAX_SEARCH_RESULTS} otherwise ` +
      `(pagination.total is then at most ${MAX_SEARCH_RESULTS}; later pages are empty). Always false without a keyword or range.`,
  }),
});
export type TAssemblyList = z.infer<typeof ZAssemblyList>;
export const ZTrashList = z.object({
  data: z.array(ZTrashedAssembly).meta({ description: "The page's trashed assemblies, latest deleted first" }),
  pagination: ZPagination,
});

export {
  ZAttributes,
  type TAttributes,
  type TProblem,
  type TProblemCode,
  type TWeaponFigures,
} from './attributes-schema';

/** The password of a private assembly, for callers other than its creator. */
const ZAccessPassword = z
  .string()
  .max(256)
  .meta({ description: 'The password of a private assembly (its creator needs none)' });

export const ZLikeInput = z.strictObject({
  uuid: ZAssemblyUuid,
  like: zBool().default(true).meta({ description: 'true likes (idempotent), false takes the like back' }),
  password: ZAccessPassword.optional(),
});

export const ZRateInput = z.strictObject({
  uuid: ZAssemblyUuid,
  score: zInt({ min: 1, max: 5 }).meta({ description: '1 to 5; rating again replaces your previous score' }),
  password: ZAccessPassword.optional(),
});

export const ZItemInput = z.strictObject({
  uuid: ZAssemblyUuid,
  password: ZAccessPassword.optional(),
  force: zBool().optional().meta({ description: 'Bypass the read cache' }),
});

export const ZAttributesInput = z.strictObject({ uuid: ZAssemblyUuid, password: ZAccessPassword.optional() });

export const ZLikeResult = z.object({
  uuid: z.string().meta({ description: 'The assembly' }),
  liked: z.boolean().meta({ description: 'You like it now' }),
  likes: z.number().int().meta({ description: 'How many users like it now' }),
});

export const ZRateResult = z.object({
  uuid: z.string().meta({ description: 'The assembly' }),
  yourScore: z.number().int().meta({ description: 'The score you gave, 1-5' }),
  rating: ZRating,
});

export const ZUuidInput = z.strictObject({ uuid: ZAssemblyUuid });

export const ZTrashResult = z.object({
  uuid: z.string().meta({ description: 'The deleted assembly' }),
  deletedAt: ZTimestamp.meta({ description: 'When it was moved to the trash' }),
  purgeAt: ZTimestamp.meta({ description: 'When it is purged for good unless restored (POST /assembly/restore)' }),
});
