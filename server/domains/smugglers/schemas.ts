// The smugglers' weekly reports (issue 35): the web client's calls (src/assets/sripts/api/smugglers_service.ts,
// read by src/views/user/account/smugglersReport.vue and src/views/smugglers/View.vue) and their answers.
import { z } from 'zod';
import { captchaAnswerOf, ZCaptchaCode, ZClientCaptcha } from '../captcha/schemas';
import { ZCommentContent, ZCommentId } from '../comment/schemas';
import { ZPrivilegeType } from '../privilege/schemas';
import { zInt, zJson, zPage, zPageInput, ZTimestamp } from '../../schemas';
import { zText } from '../../text';

export const REPORT_STATUSES = ['draft', 'published', 'archived'] as const;
export type TReportStatus = (typeof REPORT_STATUSES)[number];
export const MAX_TITLE_LENGTH = 200;
/** A report's content, as JSON text: the web client's item lists are a few kilobytes. */
export const MAX_CONTENT_CHARS = 200_000;
/** The longest range a report covers. */
export const MAX_RANGE_DAYS = 366;
/** A list reaches its first this many reports (page × pageSize above it is a 400). */
export const MAX_LIST_WINDOW = 10_000;

export const ZReportId = zInt({ min: 1, max: 999_999_999_999_999 }).meta({ description: "The report's id" });

const ZStatus = z
  .enum(REPORT_STATUSES, { error: 'must be draft, published or archived' })
  .meta({ description: 'draft (seen by its author and the admins only), published or archived' });

/** An instant as the client's date range picker sends it (ISO 8601, TimeFrame.vue), or a date alone (its midnight, UTC). */
const ZTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'must be an ISO 8601 date and time (2026-06-01T00:00:00Z) or date (2026-06-01)',
  })
  .transform((text) => new Date(text));

const ZTitle = zText({ min: 1, max: MAX_TITLE_LENGTH }).meta({
  description: `One line, 1-${MAX_TITLE_LENGTH} characters after trimming`,
});

const ZContent = zJson({ maxChars: MAX_CONTENT_CHARS }).meta({
  description: `Any JSON (the web client's {inSeason, weekly, common}), at most ${MAX_CONTENT_CHARS} characters as JSON text and 32 levels deep: stored and answered as given, never interpreted`,
});

function rangeProblem(start: Date, end: Date): string | undefined {
  if (end.getTime() < start.getTime()) return 'must not be before startTime';
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * 86_400_000)
    return `must be at most ${MAX_RANGE_DAYS} days after startTime`;
  return undefined;
}

/** The range's rule, for the writes: a 400 at endTime. */
export function checkRange(input: { startTime?: Date; endTime?: Date }, ctx: z.RefinementCtx): void {
  if (!input.startTime || !input.endTime) return;
  const problem = rangeProblem(input.startTime, input.endTime);
  if (problem) ctx.addIssue({ code: 'custom', path: ['endTime'], message: problem });
}
export { rangeProblem };

export const ZCreateReportInput = z
  .strictObject({
    title: ZTitle,
    content: ZContent.refine((value) => value !== undefined, 'is required'),
    startTime: ZTime.meta({ description: 'Start of the week it covers' }),
    endTime: ZTime.meta({
      description: `End of the week it covers: not before startTime, at most ${MAX_RANGE_DAYS} days after`,
    }),
    status: ZStatus.default('draft').meta({ description: 'draft (the default), published or archived' }),
  })
  .superRefine(checkRange);
export type TCreateReportInput = z.infer<typeof ZCreateReportInput>;

const updatable = {
  title: ZTitle.optional(),
  content: ZContent.optional(),
  status: ZStatus.optional(),
  startTime: ZTime.optional().meta({ description: 'Start of the week it covers' }),
  endTime: ZTime.optional().meta({ description: 'End of the week it covers' }),
};
const UPDATABLE = Object.keys(updatable);

export const ZUpdateReportInput = z.strictObject({ id: ZReportId, ...updatable }).superRefine((input, ctx) => {
  if (UPDATABLE.every((field) => input[field as keyof typeof input] === undefined))
    ctx.addIssue({ code: 'custom', path: [], message: `give at least one of ${UPDATABLE.join(', ')}` });
  checkRange(input, ctx);
});
export type TUpdateReportInput = z.infer<typeof ZUpdateReportInput>;

export const ZReportRef = z.strictObject({ id: ZReportId });

function withinWindow(input: { page: number; pageSize: number }, ctx: z.RefinementCtx): void {
  if (input.page * input.pageSize > MAX_LIST_WINDOW)
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `page × pageSize must be at most ${MAX_LIST_WINDOW}`,
    });
}

export const ZListReportsInput = z
  .strictObject({
    ...zPageInput(10),
    status: ZStatus.optional().meta({
      description:
        'Only this status; left out: published and archived, with your own drafts (every draft for an admin)',
    }),
    search: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({ description: 'Part of the title (any case)' }),
    sortBy: z
      .enum(['createdTime', 'updatedTime'], { error: 'must be createdTime or updatedTime' })
      .default('createdTime')
      .meta({ description: 'createdTime (the default) or updatedTime' }),
    sortOrder: z
      .enum(['desc', 'asc'], { error: 'must be desc or asc' })
      .default('desc')
      .meta({ description: 'desc (newest first, the default) or asc' }),
  })
  .superRefine(withinWindow);
export type TListReportsInput = z.infer<typeof ZListReportsInput>;

export const ZMyReportsInput = z
  .strictObject({ ...zPageInput(10), status: ZStatus.optional().meta({ description: 'Only this status' }) })
  .superRefine(withinWindow);
export type TMyReportsInput = z.infer<typeof ZMyReportsInput>;

export const ZByTimeInput = z.strictObject({
  date: ZTime.optional().meta({
    description: 'The moment (ISO 8601; a date alone is its midnight, UTC); now when left out',
  }),
});

export const ZCheckPrivilegesInput = z.strictObject({
  privileges: z
    .array(ZPrivilegeType)
    .min(1, 'must name at least one type')
    .max(50, 'must name at most 50 types')
    .meta({ description: 'The types asked about (smugglersReport.vue:70 sends the seven smuggler_weekly_report_*)' }),
});

export const ZReportCommentsInput = z.strictObject({ id: ZReportId, ...zPageInput(10) }).superRefine(withinWindow);

export const ZCreateReportCommentInput = z
  .strictObject({
    id: ZReportId,
    content: ZCommentContent,
    captcha: ZClientCaptcha.optional().meta({
      description: "The web client's SVG captcha answer: verified when given, once only",
    }),
    captchaCode: ZCaptchaCode.optional().meta({
      description: 'The contract form (ALTCHA): verified when given, once only; not with `captcha`',
    }),
  })
  .transform((input, ctx) => ({ id: input.id, content: input.content, captcha: captchaAnswerOf(input, ctx) }));

export const ZEditReportCommentInput = z.strictObject({
  id: ZReportId,
  commentId: ZCommentId,
  content: ZCommentContent,
});
export const ZReportCommentRef = z.strictObject({ id: ZReportId, commentId: ZCommentId });

export const ZUserComment = z
  .object({
    id: z.string().meta({ description: "The comment's id" }),
    content: z.string().meta({ description: 'Plain text as written' }),
    createdTime: ZTimestamp.meta({ description: 'When it was written' }),
    updatedTime: ZTimestamp.meta({ description: 'Last edit' }),
  })
  .meta({ description: "A caller's comment on a report" });

export const ZReport = z.object({
  id: z.number().int().meta({ description: "The report's id" }),
  title: z.string().meta({ description: 'Its title (plain text)' }),
  content: z.unknown().meta({ description: 'The JSON content as its author sent it' }),
  startTime: ZTimestamp.meta({ description: 'Start of the week it covers' }),
  endTime: ZTimestamp.meta({ description: 'End of the week it covers' }),
  status: ZStatus,
  createdBy: z.string().meta({ description: "Its author's user id" }),
  author_name: z
    .string()
    .meta({ description: "Its author's display name (alternativeName, else username); the client's type" }),
  author_avatar: z.string().nullable().meta({ description: "Its author's avatar URL, or null" }),
  createdTime: ZTimestamp.meta({ description: 'When it was created' }),
  updatedTime: ZTimestamp.meta({ description: 'Last change' }),
  commentCount: z.number().int().meta({ description: 'Its comments (smugglersReport.vue:391)' }),
  isUserComment: z.boolean().meta({ description: 'Whether you have commented on it (smugglersReport.vue:412)' }),
  userComment: ZUserComment.nullable().meta({
    description: 'Your comment on it (smugglersReport.vue:239, :284 read id and content); null: none',
  }),
});
export type TReport = z.infer<typeof ZReport>;

export const ZReportPage = zPage(ZReport);
export type TReportPage = z.infer<typeof ZReportPage>;

export const ZPrivilegeCheck = z.object({
  hasPrivilege: z.boolean().meta({ description: 'Whether you hold at least one of them now (smugglersReport.vue:81)' }),
  userId: z.string().meta({ description: 'Your user id' }),
  privileges: z.array(z.string()).meta({ description: 'Those of them you hold' }),
});

export const ZReportDeleted = z.object({
  id: z.number().int().meta({ description: 'The report' }),
  deleted: z
    .enum(['report', 'comment'])
    .meta({ description: 'report: the report (its author or an admin); comment: your comment on it (anyone else)' }),
  commentId: z.string().nullable().meta({ description: 'The comment deleted, when it was one' }),
});
