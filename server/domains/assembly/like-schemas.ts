// Inputs and answers of the web client's likes (GET /likes/check, POST /likes/toggle, GET /likes/count).
import { z } from 'zod';
import { ZAssemblyUuid } from './fields';

/** What can be liked here: assemblies (the client's LikeWidget also names codex targets, which Tidewatch does not serve). */
export const LIKE_TARGET_TYPES = ['assembly'] as const;

const targetFields = {
  targetType: z
    .enum(LIKE_TARGET_TYPES, { error: 'must be assembly (the only target type served)' })
    .meta({ description: 'assembly (the only target type served)' }),
  targetId: ZAssemblyUuid.meta({ description: "The assembly's uuid" }),
  password: z
    .string()
    .max(256)
    .optional()
    .meta({ description: "A private assembly's password (not needed by its creator)" }),
};

export const ZLikeTargetInput = z.strictObject(targetFields);

export const ZLikeToggleInput = z.strictObject({
  ...targetFields,
  userId: z
    .string()
    .max(64, 'must be at most 64 characters')
    .optional()
    .meta({ description: "Sent by the web client: the caller's own id. Optional; another user's id is a 403" }),
});

const targetOut = {
  targetType: z.enum(LIKE_TARGET_TYPES).meta({ description: 'Always assembly (the only target type served)' }),
  targetId: z.string().meta({ description: "The assembly's uuid" }),
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
