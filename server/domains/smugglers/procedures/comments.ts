// A report's comments (issue 35) at the web client's paths: the comment mechanism on target type smugglersReport.
import { MAX_COMMENT_LENGTH } from '../../comment/schemas';
import { ZComment, ZCommentDeleted, ZCommentList } from '../../comment/schemas';
import { authedProcedure, publicProcedure } from '../../../trpc';
import { createReportComment, deleteReportComment, editReportComment, listReportComments } from '../comments';
import {
  ZCreateReportCommentInput,
  ZEditReportCommentInput,
  ZReportCommentRef,
  ZReportCommentsInput,
} from '../schemas';

const PATH = '/smugglers/reports/{id}/comments';
const RULES =
  `content: plain text, 1-${MAX_COMMENT_LENGTH} characters after trimming (the one text rule). Creating and editing count against RATE_LIMIT_COMMENTS per 10 minutes per account (429). ` +
  'Rights of the privilege tree, in force, checked in the write (403 without).';

function openapi(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  summary: string,
  description: string,
  protect = true,
) {
  return { openapi: { method, path: path as `/${string}`, tags: ['smugglers'], protect, summary, description } };
}

export const list = publicProcedure
  .meta({
    ...openapi(
      'GET',
      PATH,
      "A report's comments, newest first, paged",
      'A published or archived report; a draft or an unknown report: 404.',
      false,
    ),
    http: { cacheControl: 'private, no-cache' },
  })
  .input(ZReportCommentsInput)
  .output(ZCommentList)
  .query(({ input, ctx }) => listReportComments(ctx.deps, { ...input, viewerId: ctx.auth?.user.id }));

export const create = authedProcedure
  .meta(
    openapi(
      'POST',
      PATH,
      'Comment on a report',
      `With smuggler_weekly_report_comment_create, on a published or archived report (a draft: 404); one comment a report (a second: 409, edit it instead); the report's author and the admins do not comment on it (403). ${RULES} ` +
        'A captcha answer is optional; when given it is verified and spent, once only (400).',
    ),
  )
  .input(ZCreateReportCommentInput)
  .output(ZComment)
  .mutation(({ input, ctx }) => createReportComment(ctx.deps, { ...input, user: ctx.user }));

export const edit = authedProcedure
  .meta(
    openapi(
      'PUT',
      `${PATH}/{commentId}`,
      'Edit your comment on a report',
      `Its author only (403), with smuggler_weekly_report_comment_update. ${RULES} A comment of another report, unknown or deleted: 404.`,
    ),
  )
  .input(ZEditReportCommentInput)
  .output(ZComment)
  .mutation(({ input, ctx }) => editReportComment(ctx.deps, { ...input, user: ctx.user }));

export const remove = authedProcedure
  .meta(
    openapi(
      'DELETE',
      `${PATH}/{commentId}`,
      'Delete a comment on a report',
      "Its author or the report's author, with smuggler_weekly_report_comment_delete; an admin any (403 otherwise). A comment of another report, unknown or already deleted: 404.",
    ),
  )
  .input(ZReportCommentRef)
  .output(ZCommentDeleted)
  .mutation(({ input, ctx }) => deleteReportComment(ctx.deps, { ...input, user: ctx.user }));
