// Inputs and answers of the web client's likes (GET /likes/check, POST /likes/toggle, GET /likes/count),
// on every target type (target-schemas.ts).
import { z } from 'zod';
import { checkTargetId, targetFields, ZTargetType } from './target-schemas';

export const ZLikeTargetInput = z.strictObject(targetFields).superRefine(checkTargetId);

export const ZLikeToggleInput = z
  .strictObject({
    ...targetFields,
    userId: z
      .string()
      .max(64, 'must be at most 64 characters')
      .optional()
      .meta({ description: "Sent by the web client: the caller's own id. Optional; another user's id is a 403" }),
  })
  .superRefine(checkTargetId);

const targetOut = {
  targetType: ZTargetType.meta({
    description:
      'The target type the likes are kept under: the one sent, or the kind of the entry it found (an NPC sent as item: npc)',
  }),
  targetId: z.string().meta({ description: "The assembly's uuid, or the codex entry's id" }),
};
/** What the answers of the likes name (LikeTarget in the OpenAPI document). */
export const ZLikeTarget = z.object(targetOut).meta({ description: 'What the likes are of' });
export const ZLikeCheck = z.object({ ...targetOut, isLiked: z.boolean().meta({ description: 'You like it' }) });
export const ZLikeCount = z.object({
  ...targetOut,
  likeCount: z.number().int().meta({ description: 'How many users like it' }),
});
export const ZLikeToggle = z.object({
  ...targetOut,
  isLiked: z.boolean().meta({ description: 'You like it now' }),
  likeCount: z.number().int().meta({ description: 'How many users like it now' }),
});
