// The community web client's input forms of an assembly (GlowProw/website, issue 18) and their one
// normalisation into the canonical inputs the services take (fields.ts): publish and edit
// (`assembly: {visibility, tags, attr, data}`, `wheel`, `warehouse`). write-schemas.ts composes them
// with the contract's form; the list's query is in client-list-schemas.ts.
import { z } from 'zod';
import { MAX_JSON_DEPTH, zJson } from '../../schemas';
import { zText } from '../../text';
import { WEAPON_SLOT_KINDS } from '../catalog';
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
