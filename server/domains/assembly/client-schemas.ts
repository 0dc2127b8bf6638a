// The community web client's input forms of an assembly (GlowProw/website, issue 18) and their one
// normalisation into the canonical inputs the services take (fields.ts): publish and edit
// (`assembly: {visibility, tags, attr, data}`, `wheel`, `warehouse`) and the list's sort
// (`sortField`, `sortOrder`). schemas.ts composes them with the contract's form.
import { z } from 'zod';
import { MAX_JSON_DEPTH, zBool, zJson } from '../../schemas';
import { zText } from '../../text';
import { WEAPON_SLOT_KINDS } from '../catalog/kinds';
import { loadoutFromClient, VISIBILITIES, type TClientLoadout } from './client-format';
import type { TClientExtras } from './fields';
import { ZAssemblyPassword, ZAssemblyUuid, ZCatalogId, ZTags, type TAssemblyPatch } from './fields';

/** Opaque JSON the client stores and reads back (weapon modifications, wheel and warehouse data): at most this many characters. */
const MAX_CLIENT_JSON = 32_768;
/** ClientJson in the OpenAPI document. */
export const ZClientJson = zJson({ maxChars: MAX_CLIENT_JSON }).meta({
  description: `Kept verbatim and answered back; not interpreted by Tidewatch. Plain JSON, at most ${MAX_JSON_DEPTH} levels deep and ${MAX_CLIENT_JSON} characters`,
});
/** A slot of the client's loadout (ClientSlot in the OpenAPI document): an item, or null for an empty slot. */
export const ZSlotRef = z
  .strictObject({
    id: ZCatalogId.nullable().meta({ description: 'Catalog id of the item in the slot; null for an empty slot' }),
  })
  .nullable();
const ZSlotRefs = z.array(ZSlotRef).max(20, 'at most 20 slots');
const ZVersion = zText({ max: 32 }).meta({ description: "The web client's version of this form" });

/** The client's loadout (`assembly.data`): mapped onto shipId, weapons, armor and furnitures (client-format.ts), and kept verbatim. */
export const ZClientLoadout = z.strictObject({
  shipSlot: z
    .strictObject({ id: ZCatalogId.meta({ description: 'Catalog id of the hull' }) })
    .meta({ description: 'The hull (shipId)' }),
  weaponSlots: ZSlotRefs.optional().meta({
    description: 'Weapons; weaponSlots[i] goes in the slot kind weaponDirections[i]',
  }),
  weaponDirections: z
    .array(z.enum(WEAPON_SLOT_KINDS).nullable())
    .max(20, 'at most 20 slots')
    .optional()
    .meta({ description: 'The slot kind of each entry of weaponSlots, in the same order' }),
  secondaryWeaponSlots: ZSlotRefs.optional().meta({ description: 'Weapons of the auxiliaryWeapon slot kind' }),
  armorSlot: ZSlotRef.optional().meta({ description: 'The armor' }),
  displaySlots: ZSlotRefs.optional().meta({ description: 'The furniture (furnitures)' }),
  ultimateSlot: ZClientJson.optional(),
  shipUpgradeSlot: ZClientJson.optional(),
  shipFrigateUpgradeSlot: ZClientJson.optional(),
  weaponModifications: ZClientJson.optional(),
  secondaryWeaponModifications: ZClientJson.optional(),
  armorModification: ZClientJson.optional(),
  __version: ZVersion.optional(),
});

/** The client's display settings of an assembly (`assembly.attr`); `password` is the access password, never stored here. */
export const ZClientAttr = z.strictObject({
  password: z
    .union([z.string(), z.number().transform(String)])
    .nullable()
    .optional()
    .meta({
      description:
        "The access password (private assemblies only). '' or absent: none on publish, unchanged on edit; null: removed",
    }),
  assemblyUseVersion: ZVersion.optional().meta({
    description: 'The version of the web client that saved the assembly',
  }),
  language: z
    .union([zText({ max: 16 }), z.array(zText({ max: 16 })).max(20)])
    .optional()
    .meta({ description: 'Language(s) of the item names shown, as the web client sets them' }),
  isComment: z.boolean().optional().meta({ description: 'Stored and answered; comments are not served yet' }),
  isLike: z.boolean().optional().meta({ description: 'Likes are on; false switches them off for this assembly' }),
  isShowItemName: z.boolean().optional().meta({ description: 'Show item names on the loadout picture' }),
  isFullName: z.boolean().optional().meta({ description: 'Show full item names rather than short ones' }),
  isAnonymous: z.boolean().optional().meta({ description: "Answers hide the creator (userId null, username '')" }),
  backgroundPresentation: zText({ max: 2048 })
    .nullable()
    .optional()
    .meta({ description: 'Background of the loadout picture, as the web client stores it' }),
});

export const ZClientAssembly = z.strictObject({
  visibility: z
    .enum(VISIBILITIES, { error: 'must be publicly or private' })
    .optional()
    .meta({ description: 'publicly (isPublic true, the default) or private' }),
  tags: ZTags.optional().meta({ description: 'Up to 10 tags (replaces the top-level tags when both are given)' }),
  attr: ZClientAttr.optional(),
  data: ZClientLoadout.optional(),
});

const ZClientPart = (version: string) =>
  z
    .strictObject({
      attr: z
        .strictObject({ [version]: ZVersion.optional() })
        .optional()
        .meta({ description: `Its settings: only ${version}` }),
      data: ZClientJson.optional(),
    })
    .meta({ description: 'Kept verbatim and answered back' });

/** The client's wheel and warehouse parts of publish and edit (ClientWheelForm, ClientWarehouseForm in the OpenAPI document). */
export const ZClientWheel = ZClientPart('wheelUseVersion');
export const ZClientWarehouse = ZClientPart('warehouseUseVersion');

/** The client's fields of publish and edit (beside name, description and tags, which the contract has too). */
export const clientFields = {
  assembly: ZClientAssembly.optional().meta({
    description: "The web client's form: visibility, tags, attr (display settings and password), data (its loadout)",
  }),
  wheel: ZClientWheel.optional(),
  warehouse: ZClientWarehouse.optional(),
};

export type TClientForm = {
  assembly?: z.infer<typeof ZClientAssembly>;
  wheel?: z.infer<typeof ZClientWheel>;
  warehouse?: z.infer<typeof ZClientWarehouse>;
  tags?: string[];
};

/**
 * The one normalisation of the client's form (issue 18): its loadout to ours (a weapon without a
 * direction is a 400 at its path), visibility to isPublic, `attr.password` to password (checked as
 * the contract's), the rest to `client`. Returns the patch's fields the client form sets.
 */
export function fromClientForm(form: TClientForm, ctx: z.RefinementCtx, onEdit: boolean): TAssemblyPatch {
  const out: TAssemblyPatch = {};
  const client: TClientExtras = {};
  const { assembly, wheel, warehouse } = form;
  if (assembly?.visibility !== undefined) out.isPublic = assembly.visibility === 'publicly';
  const tags = assembly?.tags ?? form.tags;
  if (tags !== undefined) out.tags = tags;
  if (assembly?.attr !== undefined) {
    const { password, ...attr } = assembly.attr;
    client.attr = attr;
    if (password === null) {
      if (onEdit) out.password = null;
    } else if (password !== undefined && password !== '') {
      const checked = ZAssemblyPassword.safeParse(password);
      if (checked.success) out.password = checked.data;
      else
        ctx.addIssue({
          code: 'custom',
          path: ['assembly', 'attr', 'password'],
          message: checked.error.issues[0]!.message,
        });
    }
  }
  if (assembly?.data !== undefined) {
    const { loadout, problems } = loadoutFromClient(assembly.data as TClientLoadout);
    for (const problem of problems)
      ctx.addIssue({ code: 'custom', path: ['assembly', 'data', ...problem.path], message: problem.message });
    Object.assign(out, loadout);
    client.data = assembly.data as Record<string, unknown>;
  }
  if (wheel !== undefined) client.wheel = wheel as TClientExtras['wheel'];
  if (warehouse !== undefined) client.warehouse = warehouse as TClientExtras['warehouse'];
  if (Object.keys(client).length > 0) out.client = client;
  return out;
}

/**
 * POST /assembly/attr/edit: the display settings as GET /assembly/attr answers them under `data`
 * (the client's settings panel sends that object back, `password` flag included), written by
 * editAssembly: visibility, the password (`attr.password` as on edit) and the three `attr` parts.
 */
export const ZAttributesEditInput = z
  .strictObject({
    uuid: ZAssemblyUuid,
    assembly: ZClientAssembly.pick({ visibility: true, attr: true })
      .optional()
      .meta({ description: 'visibility and the display settings (attr; attr.password as on edit)' }),
    wheel: ZClientWheel.pick({ attr: true }).optional(),
    warehouse: ZClientWarehouse.pick({ attr: true }).optional(),
    password: z.boolean().optional().meta({
      description:
        'What GET /assembly/attr answers (whether there is a password), sent back by the web client: ignored',
    }),
    ifMatch: z
      .string()
      .min(1, 'must not be empty')
      .max(1024, 'must be at most 1024 characters')
      .optional()
      .meta({ description: 'As on POST /assembly/edit (or the If-Match header)' }),
  })
  .transform((input, ctx): { uuid: string; data: TAssemblyPatch; ifMatch?: string } => {
    const { uuid, assembly, wheel, warehouse, ifMatch } = input;
    if (assembly === undefined && wheel === undefined && warehouse === undefined)
      ctx.addIssue({ code: 'custom', path: ['assembly'], message: 'give assembly, wheel or warehouse' });
    const { client, ...patch } = fromClientForm({ assembly }, ctx, true);
    const settings: NonNullable<TAssemblyPatch['settings']> = {};
    if (client?.attr !== undefined) settings.attr = client.attr;
    if (wheel?.attr !== undefined) settings.wheel = wheel.attr;
    if (warehouse?.attr !== undefined) settings.warehouse = warehouse.attr;
    return { uuid, data: { ...patch, settings }, ...(ifMatch !== undefined ? { ifMatch } : {}) };
  });

export const LIST_SORTS = ['latest', 'hottest', 'rating', 'updated'] as const;
export type TListSort = (typeof LIST_SORTS)[number];
export const LIST_ORDERS = ['desc', 'asc'] as const;
export type TListOrder = (typeof LIST_ORDERS)[number];

/** The web client's sortField values and our sorts (a null-prototype map: sortField is the user's). */
const SORT_FIELDS: Readonly<Record<string, TListSort>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TListSort>, {
    createdTime: 'latest',
    likes: 'hottest',
    rating: 'rating',
    updatedTime: 'updated',
  }),
);

/** The sort a client's sortField names, or undefined when it names none (`__proto__` included). */
export function sortOfField(sortField: string): TListSort | undefined {
  return Object.hasOwn(SORT_FIELDS, sortField) ? SORT_FIELDS[sortField] : undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A date (YYYY-MM-DD, UTC) or an ISO 8601 instant with its offset (what the client's TimeFrame pickers send: `new Date(day).toISOString()`). */
const DATE_BOUND = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** One bound of a date range: epoch ms, or undefined when absent ('' and the client's 'null', sent when one picker is empty, are absent). */
const zDateBound = () =>
  z
    .string()
    .max(64, 'must be at most 64 characters')
    .optional()
    .transform((value, ctx): number | undefined => {
      if (value === undefined || value === '' || value === 'null') return undefined;
      const ms = DATE_BOUND.test(value) ? Date.parse(value) : NaN;
      if (Number.isNaN(ms)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date (YYYY-MM-DD) or an ISO 8601 instant with its offset (2025-03-01T00:00:00.000Z)',
        });
        return z.NEVER;
      }
      return ms;
    });

/** The description of a range's Start parameter (schemas.ts gives it the cap). */
export const rangeDescription = (field: string, cap: number) =>
  `Only assemblies whose ${field} is in the range: Start from its instant, End through the 24 hours that start at it (a date: that whole UTC day; ` +
  "the web client's pickers send the local midnight of the chosen days). Either bound may be absent; Start after End is a 400. " +
  `A range pages through at most ${cap} matches (see truncated)`;

/** The client's query parameters of GET /assembly/list (beside page, pageSize and keyword, which the contract has too). */
export const clientListFields = {
  sortField: z
    .string()
    .max(32)
    .meta({
      description:
        "The web client's sort: createdTime (sort=latest), likes (sort=hottest), rating or updatedTime (sort=updated)",
    })
    .optional(),
  // The description before optional(): the OpenAPI document shows an optional parameter's inner schema.
  sortOrder: z
    .enum(LIST_ORDERS, { error: 'must be desc or asc' })
    .meta({
      description:
        'desc (the default: newest, hottest, best rated, last edited first) or asc (the same order reversed)',
    })
    .optional(),
  isHasPassword: zBool()
    .meta({
      description:
        'The web client\'s "list assemblies with a password" box. Lists hold public assemblies only, and an assembly with a password is private, so it changes nothing',
    })
    .optional(),
  createdStart: zDateBound(),
  createdEnd: zDateBound(),
  updatedStart: zDateBound(),
  updatedEnd: zDateBound(),
};

/** A date range of the list, epoch ms: `from` inclusive, `until` exclusive; either may be absent. */
export type TDateRange = { from?: number; until?: number };

type TClientListQuery = { sort?: TListSort } & {
  [K in keyof typeof clientListFields]?: z.output<(typeof clientListFields)[K]>;
};

/** The checks of the client's list parameters: a sortField we offer that agrees with sort, ranges whose start is not after their end. */
export function checkClientListQuery(input: TClientListQuery, ctx: z.RefinementCtx): void {
  if (input.sortField !== undefined) {
    const sort = sortOfField(input.sortField);
    if (sort === undefined)
      ctx.addIssue({ code: 'custom', path: ['sortField'], message: `must be ${Object.keys(SORT_FIELDS).join(', ')}` });
    else if (input.sort !== undefined && sort !== input.sort)
      ctx.addIssue({ code: 'custom', path: ['sortField'], message: `disagrees with sort=${input.sort}` });
  }
  for (const field of ['created', 'updated'] as const) {
    const start = input[`${field}Start`];
    const end = input[`${field}End`];
    if (start !== undefined && end !== undefined && start > end)
      ctx.addIssue({ code: 'custom', path: [`${field}Start`], message: `must not be after ${field}End` });
  }
}

/** A range of the canonical query from the client's two bounds: End covers the 24 hours from its instant (its day). */
export function rangeOf(start: number | undefined, end: number | undefined): TDateRange | undefined {
  if (start === undefined && end === undefined) return undefined;
  return { ...(start !== undefined ? { from: start } : {}), ...(end !== undefined ? { until: end + DAY_MS } : {}) };
}
