// The assembly domain's zod schemas (inputs and outputs of its procedures) and the types inferred from
// them. An input accepts the contract's form and the web client's (client-schemas.ts normalises the
// latter); the answers are in the web client's shapes (issue 18). By concern: write-schemas.ts (publish,
// edit), view-schemas.ts (the answers that show an assembly), list-schemas.ts (the list, the trash);
// this file gathers them with the small inputs and answers of likes, ratings and reads.
import { z } from 'zod';
import { zBool, zInt, ZTimestamp } from '../../schemas';
import { ZAssemblyUuid } from './fields';
import { ZRating } from './view-schemas';

export * from './liked-schemas';
export * from './list-schemas';
export * from './view-schemas';
export * from './write-schemas';
export { ZAssemblyUuid, type TAssemblyDraft, type TAssemblyPatch } from './fields';
export { ZAttributesEditInput } from './client-schemas';
export type { TDateRange, TListOrder, TListSort } from './client-list-schemas';

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
