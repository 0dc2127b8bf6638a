// The inputs of publish and edit: the contract's form, and the web client's (client-schemas.ts), in one.
import { z } from 'zod';
import { zBool } from '../../schemas';
import { WEAPON_SLOT_KINDS } from '../catalog';
import { clientFields, fromClientForm } from './client-schemas';
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
