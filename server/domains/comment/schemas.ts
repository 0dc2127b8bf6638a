// Comments (issue 19 on assemblies, issue 34 on every codex page): the web client's calls
// (src/assets/sripts/api/comment_service.ts, types src/assets/types/Comment.ts, read by
// src/components/CommentWidget.vue and src/views/user/account/comments.vue) with paging, limits and the
// answers' shapes. The targets are the target table's (server/domains/assembly/targets.ts).
import { z } from 'zod';
import { captchaAnswerOf, ZCaptchaCode, ZClientCaptcha } from '../captcha/schemas';
import { checkTargetId, targetFields, ZTargetType } from '../assembly';
import { zPage, zPageInput, ZTimestamp } from '../../schemas';
import { zText } from '../../text';

/** A comment's text after normalisation (line breaks to \n, trimmed): 1 to this many UTF-16 code units. */
export const MAX_COMMENT_LENGTH = 2000;
/** A comment list reaches its first this many comments: page × pageSize above it is a 400 (an offset costs a walk of the index). */
export const MAX_COMMENT_WINDOW = 10_000;

/** The text of a comment: multi-line text under the one text rule (server/text.ts), 1 to MAX_COMMENT_LENGTH code units. Stored and answered as given: never HTML, never rendered by the API. */
export const ZCommentContent = zText({ min: 1, max: MAX_COMMENT_LENGTH, kind: 'multiline' }).meta({
  description: `Plain text, 1-${MAX_COMMENT_LENGTH} characters (UTF-16 code units) after trimming (line breaks kept as \\n; other control characters refused). Stored and answered as given: never HTML`,
});

export const ZCommentId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a comment id (a UUID)',
  )
  .transform((id) => id.toLowerCase())
  .meta({ description: "The comment's id (a UUID)" });

const ZPassword = z
  .string()
  .max(256, 'must be at most 256 characters')
  .meta({ description: "A private assembly's password (not needed by its creator)" })
  .optional();

function pageFields(defaultPageSize: number) {
  const fields = zPageInput(defaultPageSize);
  return {
    page: fields.page.meta({
      description: `1-based; page × pageSize must be at most ${MAX_COMMENT_WINDOW} (a deeper page is a 400)`,
    }),
    pageSize: fields.pageSize.meta({ description: `Comments a page, 1-100 (default ${defaultPageSize})` }),
  };
}

function withinWindow(input: { page: number; pageSize: number }, ctx: z.RefinementCtx): void {
  if (input.page * input.pageSize > MAX_COMMENT_WINDOW) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `page × pageSize must be at most ${MAX_COMMENT_WINDOW}: a comment list reaches its first ${MAX_COMMENT_WINDOW} comments`,
    });
  }
}

export const ZCommentListInput = z
  .strictObject({
    ...targetFields,
    ...pageFields(20),
    sortOrder: z
      .enum(['desc', 'asc'], { error: 'must be desc or asc' })
      .default('desc')
      .meta({ description: 'desc (newest first, the default) or asc (oldest first)' }),
  })
  .superRefine(withinWindow)
  .superRefine(checkTargetId);
export type TCommentListInput = z.infer<typeof ZCommentListInput>;

export const ZMyCommentsInput = z.strictObject(pageFields(20)).superRefine(withinWindow);
export type TMyCommentsInput = z.infer<typeof ZMyCommentsInput>;

export const ZCommentCreateInput = z
  .strictObject({
    ...targetFields,
    content: ZCommentContent,
    captcha: ZClientCaptcha.meta({
      description:
        "The web client's SVG captcha answer (`{captchaType: 'svg', encryptCaptcha, response}`): verified when given, once only; `{}` or `''` is no answer",
    }).optional(),
    captchaCode: ZCaptchaCode.meta({
      description:
        "The contract's captcha form (base64 ALTCHA payload solving GET /captcha): verified when given, once only; not with `captcha`",
    }).optional(),
  })
  .superRefine(checkTargetId)
  .transform((input, ctx) => ({
    targetType: input.targetType,
    targetId: input.targetId,
    password: input.password,
    content: input.content,
    captcha: captchaAnswerOf(input, ctx),
  }));
export type TCommentCreateInput = z.infer<typeof ZCommentCreateInput>;

export const ZCommentEditInput = z.strictObject({
  id: ZCommentId,
  content: ZCommentContent,
  password: ZPassword,
});
export type TCommentEditInput = z.infer<typeof ZCommentEditInput>;

export const ZCommentDeleteInput = z.strictObject({
  id: ZCommentId,
  password: ZPassword,
});
export type TCommentDeleteInput = z.infer<typeof ZCommentDeleteInput>;

export const ZComment = z.object({
  id: z.string().meta({ description: "The comment's id (a UUID)" }),
  content: z.string().meta({ description: 'Plain text as written (never HTML: escape it when you display it)' }),
  targetType: ZTargetType.meta({
    description: 'What it is on: assembly, or a codex kind (ship, item, mod, ...; an NPC sent as item is npc)',
  }),
  targetId: z.string().meta({ description: "The assembly's uuid, or the codex entry's id" }),
  userId: z.string().meta({ description: "The author's id" }),
  userName: z
    .string()
    .meta({ description: "The author's display name (alternativeName, else username); the client's Comment type" }),
  username: z.string().meta({
    description: "The author's username (the sign-in name, unique, never a display name): what CommentWidget.vue shows",
  }),
  userAvatar: z.string().nullable().meta({ description: "The author's avatar URL, or null" }),
  createTime: ZTimestamp.meta({ description: "When it was written; the client's Comment type" }),
  createdTime: ZTimestamp.meta({ description: 'The same instant, under the name CommentWidget.vue reads' }),
  updatedTime: ZTimestamp.meta({ description: 'Last edit (equal to createdTime when never edited)' }),
});
export type TComment = z.infer<typeof ZComment>;

export const ZCommentList = zPage(ZComment);
export type TCommentList = z.infer<typeof ZCommentList>;

export const ZMyComment = ZComment.extend({
  target: z
    .object({
      type: ZTargetType.meta({ description: 'As targetType' }),
      id: z.string().meta({ description: 'As targetId' }),
      name: z.string().meta({
        description: "The assembly's name, the codex entry's (made from its id), or the smugglers' report's title",
      }),
    })
    .meta({ description: 'What it is on' }),
  assembly: z
    .object({
      uuid: z.string().meta({ description: "The assembly's uuid (also targetId)" }),
      name: z.string().meta({ description: "The assembly's name" }),
    })
    .nullable()
    .meta({ description: 'The assembly commented on; null for a codex entry' }),
});
export type TMyComment = z.infer<typeof ZMyComment>;

export const ZMyCommentList = zPage(ZMyComment);
export type TMyCommentList = z.infer<typeof ZMyCommentList>;

export const ZCommentDeleted = z.object({
  id: z.string().meta({ description: 'The deleted comment' }),
  deleted: z.literal(true).meta({ description: 'Always true' }),
});
export type TCommentDeleted = z.infer<typeof ZCommentDeleted>;
