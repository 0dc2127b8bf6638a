// The answers that show an assembly: an item, a list's summary, the locked and trashed forms, in the web client's shapes.
import { z } from 'zod';
import { ZTimestamp } from '../../schemas';
import { ZHullSummary } from '../catalog/schemas';
import { ZJsonObject } from './attributes-schema';
import { VISIBILITIES } from './client-format';

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
